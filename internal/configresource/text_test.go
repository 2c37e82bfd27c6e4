package configresource

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

func TestPlanText(t *testing.T) {
	t.Parallel()
	val := types.StringValue
	for _, tt := range []struct {
		what                    string
		configured, state, want types.String
		stateIsPlugins          bool
	}{
		{"a heredoc after an import: the state's", val("GeoIP\n"), val("GeoIP"), val("GeoIP"), false},
		{"reindented: the state's", val("  GeoIP"), val("GeoIP\n"), val("GeoIP\n"), false},
		{"changed: as configured", val("Other"), val("GeoIP"), val("Other"), true},
		{"blank, the state the plugin's: the state's", val(""), val("GeoIP"), val("GeoIP"), true},
		{"blank, the state its own: as configured", val(" "), val("Mine"), val(" "), false},
		{`blank, the state "": the state's`, val("\n"), val(""), val(""), true},
		{"blank, the state null: as configured", val(""), types.StringNull(), val(""), true},
	} {
		if got := planText(tt.configured, tt.configured, tt.state, tt.stateIsPlugins, false, true); !got.Equal(tt.want) {
			t.Errorf("%s: planned %v, want %v", tt.what, got, tt.want)
		}
	}
}

// TestPlanUpdateText: an update plans configured names and descriptions
// the service stores the same way as the state's as the state's, and a
// blank the state keeps for the plugin's as the plugin's once left out.
func TestPlanUpdateText(t *testing.T) {
	t.Parallel()
	state := RecordModel{Name: types.StringValue("GeoIP"), Description: types.StringValue("")}
	for _, tt := range []struct {
		what              string
		cfg               configured
		facts             pluginFacts
		name, description types.String
	}{
		{
			what:  "a heredoc and a blank, both the plugin's",
			cfg:   configured{RecordModel: RecordModel{Name: types.StringValue("GeoIP\n"), Description: types.StringValue("  ")}},
			facts: pluginFacts{NameFromPlugin: true, DescriptionFromPlugin: true},
			name:  types.StringValue("GeoIP"), description: types.StringValue(""),
		},
		{
			what:  "left out after a configured blank: the plugin's, after apply",
			cfg:   configured{RecordModel: RecordModel{Name: types.StringValue("GeoIP")}},
			facts: pluginFacts{NameFromPlugin: true, DescriptionFromPlugin: true, BlankDescription: true},
			name:  types.StringValue("GeoIP"), description: types.StringUnknown(),
		},
		{
			what:  "left out, the plugin's empty description: kept",
			cfg:   configured{RecordModel: RecordModel{Name: types.StringValue("GeoIP")}},
			facts: pluginFacts{DescriptionFromPlugin: true},
			name:  types.StringValue("GeoIP"), description: types.StringValue(""),
		},
		{
			what: "not known yet: the proposed value",
			cfg:  configured{RecordModel: RecordModel{Name: types.StringUnknown(), Description: types.StringUnknown()}},
			name: types.StringUnknown(), description: types.StringUnknown(),
		},
	} {
		plan := RecordModel{Name: tt.cfg.Name, Description: tt.cfg.Description}
		if tt.cfg.Description.IsNull() {
			plan.Description = types.StringUnknown()
		}
		cfg := tt.cfg
		planUpdate(&plan, &state, &cfg, tt.facts, true)
		if !plan.Name.Equal(tt.name) || !plan.Description.Equal(tt.description) {
			t.Errorf("%s: planned %v, %v; want %v, %v", tt.what, plan.Name, plan.Description, tt.name, tt.description)
		}
	}
}

// TestFromRecordText: the state keeps the configured text the service
// stores stripped, and a blank while the service shows the plugin's: an
// apply always (the planned value), a refresh where the configuration set
// it (BlankName).
func TestFromRecordText(t *testing.T) {
	t.Parallel()
	info := json.RawMessage(`{"name": "GeoIP", "description": null, "config_schema": []}`)
	str := func(s string) *string { return &s }
	for _, tt := range []struct {
		what              string
		rec               client.Record
		prior             RecordModel
		blank, apply      bool
		name, description types.String
	}{
		{
			what:  "stripped, and the plugin's null for a blank",
			rec:   client.Record{Name: str("Lookup"), Description: nil, PluginInfo: info},
			prior: RecordModel{Name: types.StringValue("\u3000Lookup\n"), Description: types.StringValue(" ")},
			name:  types.StringValue("\u3000Lookup\n"), description: types.StringValue(" "),
		},
		{
			what:  "a blank name, applied: kept",
			rec:   client.Record{Name: str("GeoIP"), PluginInfo: info},
			prior: RecordModel{Name: types.StringValue(""), Description: types.StringNull()}, apply: true,
			name: types.StringValue(""), description: types.StringNull(),
		},
		{
			what:  "a blank name the configuration set, refreshed: kept",
			rec:   client.Record{Name: str("GeoIP"), PluginInfo: info},
			prior: RecordModel{Name: types.StringValue(""), Description: types.StringNull()}, blank: true,
			name: types.StringValue(""), description: types.StringNull(),
		},
		{
			what:  "a blank name that was the plugin's, refreshed: the plugin's new one",
			rec:   client.Record{Name: str("GeoIP"), PluginInfo: info},
			prior: RecordModel{Name: types.StringValue(""), Description: types.StringNull()},
			name:  types.StringValue("GeoIP"), description: types.StringNull(),
		},
		{
			what:  "a blank name, renamed on the service: the service's",
			rec:   client.Record{Name: str("Renamed"), PluginInfo: info},
			prior: RecordModel{Name: types.StringValue(""), Description: types.StringNull()}, blank: true,
			name: types.StringValue("Renamed"), description: types.StringNull(),
		},
	} {
		facts := pluginFactsOf(&tt.rec, pluginFacts{}, false)
		facts.BlankName = tt.blank
		c := tt.prior
		c.fromRecord(&tt.rec, facts, tt.apply)
		if !c.Name.Equal(tt.name) || !c.Description.Equal(tt.description) {
			t.Errorf("%s: %v, %v; want %v, %v", tt.what, c.Name, c.Description, tt.name, tt.description)
		}
	}
}

func TestTextChanged(t *testing.T) {
	t.Parallel()
	val := types.StringValue
	for _, tt := range []struct {
		what        string
		plan, state types.String
		want        bool
	}{
		{"same", val("a"), val("a"), false},
		{"other text", val("b"), val("a"), true},
		{"a blank for the plugin's null: stored as it is", val(" "), types.StringNull(), false},
		{"text for null", val("a"), types.StringNull(), true},
		{"left out (null) for text", types.StringNull(), val("a"), true},
	} {
		if got := textChanged(tt.plan, tt.state); got != tt.want {
			t.Errorf("%s: textChanged = %v, want %v", tt.what, got, tt.want)
		}
	}
}

// TestSecretKeysKnownEmpty: a plugin without secret keys (the object form
// among them) is known to have none after private state's round trip, so
// the plan-time check of settings runs.
func TestSecretKeysKnownEmpty(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, schema := range []string{`[]`, `[{"key": "locale"}]`, `{"apiKey": {"secret": true}}`} {
		facts := pluginFactsOf(&client.Record{PluginInfo: json.RawMessage(`{"config_schema": ` + schema + `}`)}, pluginFacts{}, false)
		p := privateData{}
		if diags := writePrivate(ctx, p, pluginFactsKey, facts); diags.HasError() {
			t.Fatal(diags)
		}
		got, _ := readPrivate[pluginFacts](ctx, p, pluginFactsKey)
		if keys, known := got.secretKeys(); !known || len(keys) != 0 {
			t.Errorf("config_schema %s: secret keys %v, known %v after a round trip (%s)", schema, keys, known, p[pluginFactsKey])
		}
	}
}

func TestTextValidator(t *testing.T) {
	t.Parallel()
	v := textValidator{max: 400}
	for _, tt := range []struct {
		what, value string
		wantErr     string
	}{
		{"400 é and whitespace", "\t" + strings.Repeat("é", 400) + "\u3000\n", ""},
		{"blank", " \n", ""},
		{"empty", "", ""},
		{"401 é", strings.Repeat("é", 401), "at most 400 characters, got 401"},
		{"a null character", "a\x00", "null character"},
	} {
		resp := &validator.StringResponse{}
		v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("name"), ConfigValue: types.StringValue(tt.value)}, resp)
		switch {
		case tt.wantErr == "" && resp.Diagnostics.HasError():
			t.Errorf("%s: refused: %v", tt.what, resp.Diagnostics)
		case tt.wantErr != "" && (!resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics[0].Detail(), tt.wantErr)):
			t.Errorf("%s: %v, want an error with %q", tt.what, resp.Diagnostics, tt.wantErr)
		}
	}
}
