// Package record owns a config record as every construct shows it: the
// model and its one mapper from client.Record, the filters type, plugin
// settings and plugin_info, names and descriptions, and the listing.
package record

import (
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// Config holds what describes one config record and stays put: what the
// config resource keeps in state, and the first part of Model.
type Config struct {
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

// Model holds every attribute of one config record, as the data sources
// show it.
type Model struct {
	Config
	Deleted         types.Bool           `tfsdk:"deleted"`
	Error           jsontypes.Normalized `tfsdk:"error"`
	PluginInfo      jsontypes.Normalized `tfsdk:"plugin_info"`
	DeliveryRate24h jsontypes.Normalized `tfsdk:"delivery_rate_24h"`
	TeamID          types.Int64          `tfsdk:"team_id"`
	// HogFunction is the config's way off, which the data sources look up
	// (Successors.Of); FromRecord leaves it as it is.
	HogFunction *HogFunction `tfsdk:"hog_function"`
}

// FromRecord sets every attribute the service returns from rec: the one
// mapping from the API to Terraform. project_id is not part of a record.
func (m *Model) FromRecord(rec *client.Record) {
	// A service that sends no plugin_info: keep what an earlier answer showed.
	if info := jsonValue(rec.PluginInfo); !info.IsNull() || m.PluginInfo.IsUnknown() {
		m.PluginInfo = info
	}
	pluginInfo := json.RawMessage(m.PluginInfo.ValueString())
	secrets, _ := SecretKeys(pluginInfo)
	m.Config.FromRecord(rec, secrets)
	m.Deleted = types.BoolValue(rec.Deleted)
	m.Error = jsonValue(rec.Error)
	m.DeliveryRate24h = jsonValue(rec.DeliveryRate24h)
	m.TeamID = types.Int64Value(rec.TeamID)
}

// FromRecord sets the config's attributes from rec; `config` leaves out
// secrets, the keys the plugin marks secret (nil when not known).
func (c *Config) FromRecord(rec *client.Record, secrets map[string]bool) {
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

// jsonValue renders a JSON value from the service as compact text; absent
// or null is null.
func jsonValue(raw json.RawMessage) jsontypes.Normalized {
	if python.IsNull(raw) {
		return jsontypes.NewNormalizedNull()
	}
	return jsontypes.NewNormalizedValue(python.Compact(raw))
}
