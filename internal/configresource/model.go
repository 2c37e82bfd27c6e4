// Package record owns a config record as every construct shows it: the
// model and its one mapper from client.Record, the filters type, plugin
// settings and plugin_info, names and descriptions, and the listing.
package configresource

import (
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// RecordModel holds what describes one config record and stays put: what the
// config resource keeps in state, and the first part of Model.
type RecordModel struct {
	ID          types.Int64          `tfsdk:"id"`
	ProjectID   types.String         `tfsdk:"project_id"`
	Plugin      types.Int64          `tfsdk:"plugin"`
	Enabled     types.Bool           `tfsdk:"enabled"`
	Order       types.Int64          `tfsdk:"order"`
	Name        types.String         `tfsdk:"name"`
	Description types.String         `tfsdk:"description"`
	Filters     FiltersValue         `tfsdk:"filters"`
	Settings    jsontypes.Normalized `tfsdk:"config"`
	CreatedAt   types.String         `tfsdk:"created_at"`
	UpdatedAt   types.String         `tfsdk:"updated_at"`
}

// FromRecord sets the config's attributes from rec; `config` leaves out
// secrets, the keys the plugin marks secret (nil when not known).
func (c *RecordModel) FromRecord(rec *client.Record, secrets map[string]bool) {
	c.ID = types.Int64Value(rec.ID)
	c.Plugin = types.Int64Value(rec.Plugin)
	c.Enabled = types.BoolValue(rec.Enabled)
	c.Order = types.Int64Value(rec.Order)
	c.Name = types.StringPointerValue(rec.Name)
	c.Description = types.StringPointerValue(rec.Description)
	c.Filters = filtersFromAPI(rec.Filters, c.Filters)
	c.Settings = SettingsFromAPI(rec.Settings, secrets, c.Settings)
	c.CreatedAt = timestamp(rec.CreatedAt)
	c.UpdatedAt = timestamp(rec.UpdatedAt)
}

// filtersFromAPI renders the service's filters as compact JSON, null when
// they filter nothing. prior stays while the service stores it that way, as
// the framework's semantic equality would keep it anyway.
func filtersFromAPI(raw json.RawMessage, prior FiltersValue) FiltersValue {
	if framework.IsSet(prior) && FiltersEqual(prior.ValueString(), string(raw)) {
		return prior
	}
	if FiltersNone(string(raw)) {
		return NewFiltersNull()
	}
	return NewFiltersValue(python.Compact(raw))
}

// timestamp maps an absent time to null.
func timestamp(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// JSONValue renders a JSON value from the service as compact text; absent
// or null is null.
func JSONValue(raw json.RawMessage) jsontypes.Normalized {
	if python.IsNull(raw) {
		return jsontypes.NewNormalizedNull()
	}
	return jsontypes.NewNormalizedValue(python.Compact(raw))
}
