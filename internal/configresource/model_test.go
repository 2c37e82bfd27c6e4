package configresource

import (
	"encoding/json"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
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
