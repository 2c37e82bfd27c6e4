package datasources

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// liveRecord is a record as the live service returns it on retrieve: config
// and plugin_info are objects, error is null, delivery_rate_24h a number.
const liveRecord = `{
  "id": 42, "plugin": 1, "enabled": true, "order": 3,
  "config": {"locale": "en", "api_key": "**************** POSTHOG SECRET FIELD ****************"},
  "error": null, "team_id": 1,
  "plugin_info": {"id": 1, "name": "GeoIP", "description": "Adds location", "capabilities": {"methods": ["processEvent"], "scheduled_tasks": []}},
  "delivery_rate_24h": 0.95,
  "created_at": "2024-06-01T10:00:00.123456Z", "updated_at": "2024-06-02T11:00:00.654321Z",
  "name": "GeoIP", "description": "Adds location", "deleted": false,
  "filters": {"events": [{"id": "$pageview", "type": "events", "properties": []}]}
}`

func decodeRecord(t *testing.T, s string) *client.Record {
	t.Helper()
	var rec client.Record
	if err := json.Unmarshal([]byte(s), &rec); err != nil {
		t.Fatal(err)
	}
	return &rec
}

func TestFromRecord(t *testing.T) {
	t.Parallel()
	m := recordModel{RecordModel: configresource.RecordModel{ProjectID: types.StringValue("7")}, PluginInfo: jsontypes.NewNormalizedUnknown()}
	m.FromRecord(decodeRecord(t, liveRecord))

	checks := map[string]struct{ got, want any }{
		"id":                {m.ID, types.Int64Value(42)},
		"project_id":        {m.ProjectID, types.StringValue("7")},
		"plugin":            {m.Plugin, types.Int64Value(1)},
		"enabled":           {m.Enabled, types.BoolValue(true)},
		"order":             {m.Order, types.Int64Value(3)},
		"name":              {m.Name, types.StringValue("GeoIP")},
		"description":       {m.Description, types.StringValue("Adds location")},
		"filters":           {m.Filters, configresource.NewFiltersValue(`{"events":[{"id":"$pageview","type":"events","properties":[]}]}`)},
		"deleted":           {m.Deleted, types.BoolValue(false)},
		"config":            {m.Settings, jsontypes.NewNormalizedValue(`{"locale":"en"}`)}, // the masked secret left out
		"error":             {m.Error, jsontypes.NewNormalizedNull()},
		"delivery_rate_24h": {m.DeliveryRate24h, jsontypes.NewNormalizedValue(`0.95`)},
		"team_id":           {m.TeamID, types.Int64Value(1)},
		"created_at":        {m.CreatedAt, types.StringValue("2024-06-01T10:00:00.123456Z")},
		"updated_at":        {m.UpdatedAt, types.StringValue("2024-06-02T11:00:00.654321Z")},
	}
	for name, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", name, c.got, c.want)
		}
	}
	if !framework.IsSet(m.PluginInfo) {
		t.Fatalf("plugin_info = %v, want the object", m.PluginInfo)
	}
}

func TestFromRecordOddShapes(t *testing.T) {
	t.Parallel()
	var m recordModel
	// A list page: plugin_info null, name and filters null, error a string,
	// config a non-object, timestamps absent.
	m.FromRecord(decodeRecord(t, `{"id": 5, "plugin": 2, "order": -1, "plugin_info": null,
		"name": null, "description": null, "filters": null, "error": "boom", "config": [1, 2],
		"delivery_rate_24h": null}`))

	if !m.PluginInfo.IsNull() {
		t.Errorf("plugin_info = %v, want null, as the page shows it", m.PluginInfo)
	}
	if !m.Name.IsNull() || !m.Description.IsNull() || !m.Filters.IsNull() || !m.DeliveryRate24h.IsNull() {
		t.Errorf("want nulls, got name %v description %v filters %v delivery %v", m.Name, m.Description, m.Filters, m.DeliveryRate24h)
	}
	if m.Error.ValueString() != `"boom"` || m.Settings.ValueString() != `[1,2]` {
		t.Errorf("error %v config %v, want JSON text", m.Error, m.Settings)
	}
	if !m.CreatedAt.IsNull() || !m.UpdatedAt.IsNull() {
		t.Errorf("absent timestamps should be null, got %v %v", m.CreatedAt, m.UpdatedAt)
	}
	if m.Order.ValueInt64() != -1 {
		t.Errorf("order = %v", m.Order)
	}

}

const geoIPInfo = `{"id": 1, "config_schema": [
  {"key": "api_key", "name": "Lookup API key", "type": "string", "secret": true},
  {"key": "locale", "name": "Locale", "type": "string"}]}`

// TestFromRecordSettingsFromListPage: a list page carries config (masked,
// or null for a secret never set) and no plugin_info, which the read cache
// adds (client.ReadCache.WithPluginInfo) before the record is shown: the
// secret keys come from it, and a key added elsewhere shows.
func TestFromRecordSettingsFromListPage(t *testing.T) {
	t.Parallel()
	var m recordModel
	m.FromRecord(decodeRecord(t, `{"id": 5, "plugin": 1, "plugin_info": `+geoIPInfo+`,
		"config": {"locale": "en", "api_key": null, "added": true}}`))
	if m.Settings.ValueString() != `{"added":true,"locale":"en"}` {
		t.Errorf("config = %v, want the non-secret settings with the key added", m.Settings)
	}
}
