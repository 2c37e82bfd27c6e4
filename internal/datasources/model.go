package datasources

import (
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

// FromRecord sets every attribute the service returns from rec: the
// record's (RecordModel.FromRecord), then what only the data sources show.
// project_id is not part of a record.
func (m *recordModel) FromRecord(rec *client.Record) {
	m.RecordModel.FromRecord(rec)
	m.PluginInfo = configresource.JSONValue(rec.PluginInfo)
	m.Deleted = types.BoolValue(rec.Deleted)
	m.Error = configresource.JSONValue(rec.Error)
	m.DeliveryRate24h = configresource.JSONValue(rec.DeliveryRate24h)
	m.TeamID = types.Int64Value(rec.TeamID)
}
