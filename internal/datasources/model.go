package datasources

import (
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
)

// recordModel holds every attribute of one config record, as the data sources
// show it.
type recordModel struct {
	configresource.RecordModel
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
func (m *recordModel) FromRecord(rec *client.Record) {
	// A service that sends no plugin_info: keep what an earlier answer showed.
	if info := configresource.JSONValue(rec.PluginInfo); !info.IsNull() || m.PluginInfo.IsUnknown() {
		m.PluginInfo = info
	}
	pluginInfo := json.RawMessage(m.PluginInfo.ValueString())
	secrets, _ := configresource.SecretKeys(pluginInfo)
	m.RecordModel.FromRecord(rec, secrets)
	m.Deleted = types.BoolValue(rec.Deleted)
	m.Error = configresource.JSONValue(rec.Error)
	m.DeliveryRate24h = configresource.JSONValue(rec.DeliveryRate24h)
	m.TeamID = types.Int64Value(rec.TeamID)
}
