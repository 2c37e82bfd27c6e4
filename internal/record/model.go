// Package record owns a pipeline config record as every construct shows it:
// the model and the one mapper from client.Record (FromRecord), the filters
// type that compares filters the way the service normalises them, the
// plugin settings (secret keys, the service's mask, what `config` shows,
// what is sent), and the listing and narrowing the list data source and the
// list resource share.
package record

import (
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// Model holds the attributes of one pipeline config record as every
// construct shows it: the config resource and its list resource embed it,
// the data sources show it as it is. FromRecord fills it.
type Model struct {
	ID              types.Int64          `tfsdk:"id"`
	ProjectID       types.String         `tfsdk:"project_id"`
	Plugin          types.Int64          `tfsdk:"plugin"`
	Enabled         types.Bool           `tfsdk:"enabled"`
	Order           types.Int64          `tfsdk:"order"`
	Name            types.String         `tfsdk:"name"`
	Description     types.String         `tfsdk:"description"`
	Filters         FiltersValue         `tfsdk:"filters"`
	Deleted         types.Bool           `tfsdk:"deleted"`
	Settings        jsontypes.Normalized `tfsdk:"config"`
	Error           jsontypes.Normalized `tfsdk:"error"`
	PluginInfo      jsontypes.Normalized `tfsdk:"plugin_info"`
	DeliveryRate24h jsontypes.Normalized `tfsdk:"delivery_rate_24h"`
	TeamID          types.Int64          `tfsdk:"team_id"`
	CreatedAt       types.String         `tfsdk:"created_at"`
	UpdatedAt       types.String         `tfsdk:"updated_at"`
}

// FromRecord sets every attribute the service returns from rec: the one
// mapping from the API to Terraform, shared by every construct and
// operation. project_id is not part of a record and stays as it is.
func (m *Model) FromRecord(rec *client.Record) {
	m.ID = types.Int64Value(rec.ID)
	m.Plugin = types.Int64Value(rec.Plugin)
	m.Enabled = types.BoolValue(rec.Enabled)
	m.Order = types.Int64Value(rec.Order)
	m.Name = types.StringPointerValue(rec.Name)
	m.Description = types.StringPointerValue(rec.Description)
	m.Filters = filtersFromAPI(rec.Filters)
	m.Deleted = types.BoolValue(rec.Deleted)
	m.Error = jsonValue(rec.Error)
	// A service that sends no plugin_info: keep what an earlier answer
	// showed rather than forget it.
	if info := jsonValue(rec.PluginInfo); !info.IsNull() || m.PluginInfo.IsUnknown() {
		m.PluginInfo = info
	}
	// Only the non-secret settings, and the prior value (the configured
	// one) while the service agrees with it.
	secrets, _ := SecretKeysOf(m.PluginInfo)
	m.Settings = SettingsFromAPI(rec.Config, secrets, m.Settings)
	m.DeliveryRate24h = jsonValue(rec.DeliveryRate24h)
	m.TeamID = types.Int64Value(rec.TeamID)
	m.CreatedAt = timestamp(rec.CreatedAt)
	m.UpdatedAt = timestamp(rec.UpdatedAt)
}

// filtersFromAPI renders the service's filters as compact JSON text; absent
// or null filters are null.
func filtersFromAPI(raw json.RawMessage) FiltersValue {
	if jsonvalue.IsNull(raw) {
		return NewFiltersNull()
	}
	return NewFiltersValue(jsonvalue.Compact(raw))
}

// timestamp maps an absent time to null.
func timestamp(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// jsonValue renders any JSON value from the service as compact JSON text;
// an absent value or null is null.
func jsonValue(raw json.RawMessage) jsontypes.Normalized {
	if jsonvalue.IsNull(raw) {
		return jsontypes.NewNormalizedNull()
	}
	return jsontypes.NewNormalizedValue(jsonvalue.Compact(raw))
}
