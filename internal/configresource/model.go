package configresource

import (
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// RecordModel holds what describes one config record and stays put: what the
// config resource keeps in state, and what every construct shows of a record.
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

// FromRecord sets m from rec for a construct that shows the record (a data
// source, a list result): the one mapping from the API, as fromRecord.
func (m *RecordModel) FromRecord(rec *client.Record) {
	m.fromRecord(rec, pluginFactsOf(rec, pluginFacts{}, false), false)
}

// fromRecord sets m from rec: m is the plan (apply), the state (refresh) or
// empty. config leaves out the settings the plugin marks secret (facts); a
// name or description stays where the service shows the plugin's for it:
// at an apply always, else for a configured blank.
func (m *RecordModel) fromRecord(rec *client.Record, facts pluginFacts, apply bool) {
	secrets, _ := facts.secretKeys()
	m.ID = types.Int64Value(rec.ID)
	m.Plugin = types.Int64Value(rec.Plugin)
	m.Enabled = types.BoolValue(rec.Enabled)
	m.Order = types.Int64Value(rec.Order)
	m.Name = TextFromAPI(rec.Name, m.Name, facts.NameFromPlugin && (apply || facts.BlankName))
	m.Description = TextFromAPI(rec.Description, m.Description, facts.DescriptionFromPlugin && (apply || facts.BlankDescription))
	m.Filters = filtersFromAPI(rec.Filters, m.Filters)
	m.Settings = SettingsFromAPI(rec.Settings, secrets, m.Settings)
	m.CreatedAt = timestamp(rec.CreatedAt)
	m.UpdatedAt = timestamp(rec.UpdatedAt)
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
