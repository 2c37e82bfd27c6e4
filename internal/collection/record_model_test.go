package collection

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
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
	m := recordModel{ProjectID: types.StringValue("7"), PluginInfo: jsontypes.NewNormalizedUnknown()}
	m.fromRecord(decodeRecord(t, liveRecord))

	checks := map[string]struct{ got, want any }{
		"id":                {m.ID, types.Int64Value(42)},
		"project_id":        {m.ProjectID, types.StringValue("7")},
		"plugin":            {m.Plugin, types.Int64Value(1)},
		"enabled":           {m.Enabled, types.BoolValue(true)},
		"order":             {m.Order, types.Int64Value(3)},
		"name":              {m.Name, types.StringValue("GeoIP")},
		"description":       {m.Description, types.StringValue("Adds location")},
		"filters":           {m.Filters, NewFiltersValue(`{"events":[{"id":"$pageview","type":"events","properties":[]}]}`)},
		"deleted":           {m.Deleted, types.BoolValue(false)},
		"config":            {m.Config, jsontypes.NewNormalizedValue(`{"locale":"en"}`)}, // the masked secret left out
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
	prior := jsontypes.NewNormalizedValue(`{"id":1,"name":"GeoIP"}`)
	m := recordModel{PluginInfo: prior}
	// A list page: plugin_info null, name and filters null, error a string,
	// config a non-object, timestamps absent.
	m.fromRecord(decodeRecord(t, `{"id": 5, "plugin": 2, "order": -1, "plugin_info": null,
		"name": null, "description": null, "filters": null, "error": "boom", "config": [1, 2],
		"delivery_rate_24h": null}`))

	if m.PluginInfo != prior {
		t.Errorf("plugin_info = %v, want the prior value kept", m.PluginInfo)
	}
	if !m.Name.IsNull() || !m.Description.IsNull() || !m.Filters.IsNull() || !m.DeliveryRate24h.IsNull() {
		t.Errorf("want nulls, got name %v description %v filters %v delivery %v", m.Name, m.Description, m.Filters, m.DeliveryRate24h)
	}
	if m.Error.ValueString() != `"boom"` || m.Config.ValueString() != `[1,2]` {
		t.Errorf("error %v config %v, want JSON text", m.Error, m.Config)
	}
	if !m.CreatedAt.IsNull() || !m.UpdatedAt.IsNull() {
		t.Errorf("absent timestamps should be null, got %v %v", m.CreatedAt, m.UpdatedAt)
	}
	if m.Order.ValueInt64() != -1 {
		t.Errorf("order = %v", m.Order)
	}

	// Without a prior value, null plugin_info stays null.
	fresh := recordModel{PluginInfo: jsontypes.NewNormalizedUnknown()}
	fresh.fromRecord(decodeRecord(t, `{"id": 5, "plugin": 2, "plugin_info": null}`))
	if !fresh.PluginInfo.IsNull() {
		t.Errorf("plugin_info = %v, want null", fresh.PluginInfo)
	}
}

func body(t *testing.T, in client.RecordInput) string {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCreateInput(t *testing.T) {
	t.Parallel()
	minimal := recordModel{
		Plugin: types.Int64Value(3), Enabled: types.BoolValue(false), Order: types.Int64Unknown(),
		Name: types.StringUnknown(), Description: types.StringUnknown(), Filters: NewFiltersNull(),
	}
	if got, want := body(t, minimal.createInput()), `{"plugin":3,"enabled":false,"order":0}`; got != want {
		t.Errorf("minimal create body %s, want %s", got, want)
	}

	full := recordModel{
		Plugin: types.Int64Value(1), Enabled: types.BoolValue(true), Order: types.Int64Value(7),
		Name: types.StringValue("n"), Description: types.StringValue("d"),
		Filters: NewFiltersValue(`{"events":[{"type":"events","id":"$pageview"}]}`),
	}
	want := `{"plugin":1,"enabled":true,"order":7,"name":"n","description":"d","filters":{"events":[{"type":"events","id":"$pageview"}]}}`
	if got := body(t, full.createInput()); got != want {
		t.Errorf("full create body %s, want %s", got, want)
	}
}

func TestUpdateInput(t *testing.T) {
	t.Parallel()
	state := recordModel{
		Plugin: types.Int64Value(1), Enabled: types.BoolValue(true), Order: types.Int64Value(1),
		Name: types.StringValue("custom"), Description: types.StringValue("plugin description"),
		Filters: NewFiltersValue(`{"events":[{"id":"a","type":"events"}]}`),
	}
	configured := func(m recordModel) recordModel { return m }

	tests := map[string]struct {
		plan, config recordModel
		want         string
		changed      bool
	}{
		"nothing": {
			plan: state, config: configured(state), want: `{}`,
		},
		"normalised filters are no change": {
			plan: func() recordModel {
				m := state
				m.Filters = NewFiltersValue(`{"events":[{"type":"events","id":"a","properties":[]}]}`)
				return m
			}(),
			config: state, want: `{}`,
		},
		"every writable field": {
			plan: recordModel{
				Plugin: types.Int64Value(1), Enabled: types.BoolValue(false), Order: types.Int64Value(5),
				Name: types.StringValue("other"), Description: types.StringValue("mine"),
				Filters: NewFiltersValue(`{"actions":[{"id":1,"type":"actions"}]}`),
			},
			config: recordModel{
				Name: types.StringValue("other"), Description: types.StringValue("mine"),
			},
			want:    `{"enabled":false,"order":5,"name":"other","description":"mine","filters":{"actions":[{"id":1,"type":"actions"}]}}`,
			changed: true,
		},
		"removed name and filters are sent as null": {
			plan: func() recordModel {
				m := state
				m.Name = types.StringValue("GeoIP") // the plugin's, planned by pluginFallback
				m.Filters = NewFiltersNull()
				return m
			}(),
			config:  recordModel{Name: types.StringNull(), Description: types.StringNull()},
			want:    `{"name":null,"filters":null}`,
			changed: true,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in, changed := updateInput(&tt.plan, &state, &tt.config)
			if changed != tt.changed {
				t.Errorf("changed = %v, want %v", changed, tt.changed)
			}
			if got := body(t, in); got != tt.want {
				t.Errorf("body %s, want %s", got, tt.want)
			}
		})
	}
}

func TestParseImportID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id, provider string
		project      string
		config       int64
		wantErr      bool
	}{
		{id: "1/42", project: "1", config: 42},
		{id: "@current/42", project: "@current", config: 42},
		{id: "42", provider: "2", project: "2", config: 42},
		{id: "3/42", provider: "2", project: "3", config: 42},
		{id: "42", wantErr: true},
		{id: "x/42", wantErr: true},
		{id: "0/42", wantErr: true},
		{id: "1/0", wantErr: true},
		{id: "1/-4", wantErr: true},
		{id: "1/abc", wantErr: true},
		{id: "1/42/7", wantErr: true},
		{id: "/42", wantErr: true},
	}
	for _, tt := range tests {
		project, config, err := parseImportID(tt.id, tt.provider)
		if (err != nil) != tt.wantErr {
			t.Errorf("parseImportID(%q, %q) error %v, want error %v", tt.id, tt.provider, err, tt.wantErr)
			continue
		}
		if err == nil && (project != tt.project || config != tt.config) {
			t.Errorf("parseImportID(%q, %q) = %s, %d; want %s, %d", tt.id, tt.provider, project, config, tt.project, tt.config)
		}
	}
}

func TestAttrPath(t *testing.T) {
	t.Parallel()
	for attr, want := range map[string]string{
		"name": "name", "filters__events__0__type": "filters", "plugin": "plugin", "order": "order",
	} {
		p, ok := attrPath(attr)
		if !ok || p.String() != want {
			t.Errorf("attrPath(%q) = %v, %v; want %s", attr, p, ok, want)
		}
	}
	for _, attr := range []string{"", "non_field_errors", "team"} {
		if _, ok := attrPath(attr); ok {
			t.Errorf("attrPath(%q) should not map", attr)
		}
	}
}
