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
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// Config holds what describes one config record and stays put: the
// attributes the config resource keeps in state (package configresource),
// and the first part of Model. Config.FromRecord fills it.
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
// show it: the Config, and what describes the plugin, changes on its own or
// is the same for every config of a project. Model.FromRecord fills it.
type Model struct {
	Config
	Deleted         types.Bool           `tfsdk:"deleted"`
	Error           jsontypes.Normalized `tfsdk:"error"`
	PluginInfo      jsontypes.Normalized `tfsdk:"plugin_info"`
	DeliveryRate24h jsontypes.Normalized `tfsdk:"delivery_rate_24h"`
	TeamID          types.Int64          `tfsdk:"team_id"`
	// HogFunction is the hog function a migration would build of it.
	HogFunction *HogFunction `tfsdk:"hog_function"`
}

// FromRecord sets every attribute the service returns from rec: the one
// mapping from the API to Terraform, shared by every construct and
// operation (the Config part through Config.FromRecord). project_id is not
// part of a record and stays as it is.
func (m *Model) FromRecord(rec *client.Record) {
	// A service that sends no plugin_info: keep what an earlier answer
	// showed rather than forget it.
	if info := jsonValue(rec.PluginInfo); !info.IsNull() || m.PluginInfo.IsUnknown() {
		m.PluginInfo = info
	}
	secrets, _ := SecretKeysOf(m.PluginInfo)
	m.Config.FromRecord(rec, secrets)
	m.Deleted = types.BoolValue(rec.Deleted)
	m.Error = jsonValue(rec.Error)
	m.DeliveryRate24h = jsonValue(rec.DeliveryRate24h)
	m.TeamID = types.Int64Value(rec.TeamID)
	m.HogFunction = hogFunctionOf(&m.Config, json.RawMessage(m.PluginInfo.ValueString()), rec.Config)
}

// FromRecord sets the config's attributes from rec. secrets are the keys
// its plugin marks secret (nil when not known), which `config` leaves out.
// project_id is not part of a record and stays as it is.
func (c *Config) FromRecord(rec *client.Record, secrets map[string]bool) {
	c.ID = types.Int64Value(rec.ID)
	c.Plugin = types.Int64Value(rec.Plugin)
	c.Enabled = types.BoolValue(rec.Enabled)
	c.Order = types.Int64Value(rec.Order)
	c.Name = types.StringPointerValue(rec.Name)
	c.Description = types.StringPointerValue(rec.Description)
	c.Filters = filtersFromAPI(rec.Filters, c.Filters)
	// Only the non-secret settings, and the prior value (the configured
	// one) while the service agrees with it.
	c.Settings = SettingsFromAPI(rec.Config, secrets, c.Settings)
	c.CreatedAt = timestamp(rec.CreatedAt)
	c.UpdatedAt = timestamp(rec.UpdatedAt)
}

// filtersFromAPI renders the service's filters as compact JSON text.
// Filters that filter nothing (null, or the {} the service stores when
// filters are cleared) are null, the same as those never set. The prior
// value (configured, or in state) is kept when the service stores it that
// way, as the framework would keep it anyway (FiltersValue's semantic
// equality), and so is a prior that filters nothing while the service's
// filter nothing either: a refresh of unchanged filters changes nothing.
func filtersFromAPI(raw json.RawMessage, prior FiltersValue) FiltersValue {
	if framework.IsSet(prior) && FiltersEqual(prior.ValueString(), string(raw)) {
		return prior
	}
	if FiltersNone(string(raw)) {
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
