package collection

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

const geoIPInfo = `{"id": 1, "config_schema": [
  {"key": "api_key", "name": "Lookup API key", "type": "string", "secret": true},
  {"key": "locale", "name": "Locale", "type": "string"}]}`

func TestSecretKeys(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		info  string
		want  []string
		known bool
	}{
		"secret and plain":         {geoIPInfo, []string{"api_key"}, true},
		"no secrets":               {`{"config_schema": []}`, nil, true},
		"list page: null":          {`null`, nil, false},
		"absent":                   {``, nil, false},
		"no config_schema":         {`{"id": 1}`, nil, false},
		"config_schema not a list": {`{"config_schema": {}}`, nil, false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, known := secretKeys(json.RawMessage(tt.info))
			if known != tt.known || len(got) != len(tt.want) {
				t.Fatalf("secretKeys = %v, %v; want %v, %v", got, known, tt.want, tt.known)
			}
			for _, k := range tt.want {
				if !got[k] {
					t.Errorf("%s not secret", k)
				}
			}
		})
	}
}

func TestConfigFromAPI(t *testing.T) {
	t.Parallel()
	secrets := map[string]bool{"api_key": true}
	masked := `"` + secretMask + `"`
	val := jsontypes.NewNormalizedValue
	tests := map[string]struct {
		raw     string
		secrets map[string]bool
		prior   jsontypes.Normalized
		want    jsontypes.Normalized
	}{
		"import: secrets left out": {
			raw: `{"locale": "en", "api_key": ` + masked + `}`, secrets: secrets,
			prior: jsontypes.NewNormalizedNull(), want: val(`{"locale":"en"}`),
		},
		"a secret never set reads null: left out": {
			raw: `{"locale": "en", "api_key": null}`, secrets: secrets,
			prior: jsontypes.NewNormalizedUnknown(), want: val(`{"locale":"en"}`),
		},
		"secret keys not known: masked values left out": {
			raw:   `{"locale": "en", "api_key": ` + masked + `}`,
			prior: jsontypes.NewNormalizedNull(), want: val(`{"locale":"en"}`),
		},
		"the configured text is kept while the service agrees": {
			raw: `{"locale": "en", "api_key": ` + masked + `}`, secrets: secrets,
			prior: val(`{ "locale" : "en" }`), want: val(`{ "locale" : "en" }`),
		},
		"keys the service adds are no change": {
			raw: `{"locale": "en", "added": 1, "n": 1.0}`, secrets: secrets,
			prior: val(`{"locale":"en","n":1}`), want: val(`{"locale":"en","n":1}`),
		},
		"a configured value changed elsewhere is drift": {
			raw: `{"locale": "de", "added": 1}`, secrets: secrets,
			prior: val(`{"locale":"en"}`), want: val(`{"added":1,"locale":"de"}`),
		},
		"a configured key removed elsewhere is drift": {
			raw: `{"api_key": ` + masked + `}`, secrets: secrets,
			prior: val(`{"locale":"en"}`), want: val(`{}`),
		},
		"a secret in the prior value is not kept": {
			raw: `{"api_key": ` + masked + `}`, secrets: secrets,
			prior: val(`{"api_key":"plain"}`), want: val(`{}`),
		},
		"null": {raw: `null`, prior: val(`{}`), want: jsontypes.NewNormalizedNull()},
		"not an object: as sent": {
			raw: `[1, 2]`, prior: jsontypes.NewNormalizedNull(), want: val(`[1,2]`),
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := configFromAPI(json.RawMessage(tt.raw), tt.secrets, tt.prior); !got.Equal(tt.want) {
				t.Errorf("configFromAPI = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSettingsInput(t *testing.T) {
	t.Parallel()
	str := types.StringValue
	tests := map[string]struct {
		plain, secret stringValue
		want, err     string
	}{
		"both, merged with sorted keys": {plain: jsontypes.NewNormalizedValue(`{"locale": "en"}`), secret: str(`{"api_key": "s"}`),
			want: `{"api_key":"s","locale":"en"}`},
		"plain settings only": {plain: jsontypes.NewNormalizedValue(`{"locale":"en"}`), secret: types.StringNull(), want: `{"locale":"en"}`},
		"secrets only, plain not known": {plain: jsontypes.NewNormalizedUnknown(), secret: str(`{"api_key":"s"}`),
			want: `{"api_key":"s"}`},
		"nothing": {plain: types.StringNull(), secret: types.StringNull(), want: `{}`},
		"config not an object": {plain: str(`[1]`), secret: types.StringNull(),
			err: "config must be a JSON object"},
		"secret not an object": {plain: types.StringNull(), secret: str(`"s"`),
			err: "secret_config_wo must be a JSON object"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := settingsInput(tt.plain, tt.secret)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("settingsInput = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func TestCheckSettingKeys(t *testing.T) {
	t.Parallel()
	secrets := map[string]bool{"api_key": true}
	str := types.StringValue
	tests := map[string]struct {
		plain, secret stringValue
		want          []string // attribute: detail fragment
	}{
		"in their places": {plain: str(`{"locale":"en"}`), secret: str(`{"api_key":"s"}`)},
		"a secret in config": {plain: str(`{"api_key":"s","locale":"en"}`), secret: types.StringNull(),
			want: []string{`config: config sets "api_key", which plugin 1 marks secret`}},
		"a plain setting in secret_config_wo": {plain: types.StringNull(), secret: str(`{"locale":"en","zone":"x"}`),
			want: []string{`secret_config_wo: secret_config_wo sets "locale", "zone", which plugin 1 does not mark secret`}},
		"not known yet": {plain: types.StringUnknown(), secret: types.StringUnknown()},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			diags := checkSettingKeys(1, secrets, tt.plain, tt.secret, " NOTE")
			if len(diags) != len(tt.want) {
				t.Fatalf("diagnostics %v, want %d", diags, len(tt.want))
			}
			for i, w := range tt.want {
				attr, detail, _ := strings.Cut(w, ": ")
				d, ok := diags[i].(diag.DiagnosticWithPath)
				if !ok || !d.Path().Equal(path.Root(attr)) || d.Severity() != diag.SeverityError {
					t.Errorf("diagnostic %v, want an error on %s", diags[i], attr)
					continue
				}
				if !strings.Contains(d.Detail(), detail) || !strings.HasSuffix(d.Detail(), " NOTE") {
					t.Errorf("detail %q, want %q and the note", d.Detail(), detail)
				}
			}
		})
	}
}

func TestConfigPlan(t *testing.T) {
	t.Parallel()
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"config": tftypes.String}}
	raw := func(v tftypes.Value) tftypes.Value {
		return tftypes.NewValue(typ, map[string]tftypes.Value{"config": v})
	}
	known := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	null := tftypes.NewValue(tftypes.String, nil)
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	val := jsontypes.NewNormalizedValue

	tests := map[string]struct {
		config, state jsontypes.Normalized
		stateNull     bool
		proposed      jsontypes.Normalized
		want          jsontypes.Normalized
	}{
		"create: as configured": {
			config: val(`{"a":1}`), stateNull: true, proposed: val(`{"a":1}`), want: val(`{"a":1}`),
		},
		"create, left out: the service's": {
			config: jsontypes.NewNormalizedNull(), stateNull: true,
			proposed: jsontypes.NewNormalizedUnknown(), want: jsontypes.NewNormalizedUnknown(),
		},
		"left out: kept": {
			config: jsontypes.NewNormalizedNull(), state: val(`{"a":1}`),
			proposed: jsontypes.NewNormalizedUnknown(), want: val(`{"a":1}`),
		},
		"written differently: the state's text": {
			config: val(`{ "b": [1, 2], "a": 1.0 }`), state: val(`{"a":1,"b":[1,2]}`),
			proposed: val(`{ "b": [1, 2], "a": 1.0 }`), want: val(`{"a":1,"b":[1,2]}`),
		},
		"a key the configuration no longer sets: planned away": {
			config: val(`{"a":1}`), state: val(`{"a":1,"b":2}`), proposed: val(`{"a":1}`), want: val(`{"a":1}`),
		},
		"changed": {
			config: val(`{"a":2}`), state: val(`{"a":1}`), proposed: val(`{"a":2}`), want: val(`{"a":2}`),
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			toTF := func(v jsontypes.Normalized) tftypes.Value {
				switch {
				case v.IsNull():
					return null
				case v.IsUnknown():
					return unknown
				}
				return known(v.ValueString())
			}
			state := tfsdk.State{Raw: raw(toTF(tt.state))}
			if tt.stateNull {
				state.Raw = tftypes.NewValue(typ, nil)
			}
			req := planmodifier.StringRequest{
				ConfigValue: tt.config.StringValue, StateValue: tt.state.StringValue, PlanValue: tt.proposed.StringValue,
				State: state, Plan: tfsdk.Plan{Raw: raw(toTF(tt.proposed))},
			}
			if tt.stateNull {
				req.StateValue = types.StringNull()
			}
			resp := planmodifier.StringResponse{PlanValue: req.PlanValue}
			configPlan{}.PlanModifyString(ctx, req, &resp)
			if !resp.PlanValue.Equal(tt.want.StringValue) {
				t.Errorf("planned %v, want %v", resp.PlanValue, tt.want)
			}
		})
	}
}

// TestFromRecordSettingsFromListPage: a list page carries config (masked,
// or null for a secret never set) but plugin_info null; the secret keys come
// from the plugin_info kept in state, and the configured value is kept.
func TestFromRecordSettingsFromListPage(t *testing.T) {
	t.Parallel()
	m := recordModel{
		PluginInfo: jsontypes.NewNormalizedValue(geoIPInfo),
		Config:     jsontypes.NewNormalizedValue(`{"locale":"en"}`),
	}
	m.fromRecord(decodeRecord(t, `{"id": 5, "plugin": 1, "plugin_info": null,
		"config": {"locale": "en", "api_key": null, "added": true}}`))
	if m.Config.ValueString() != `{"locale":"en"}` {
		t.Errorf("config = %v, want the configured value kept", m.Config)
	}

	fresh := recordModel{PluginInfo: jsontypes.NewNormalizedValue(geoIPInfo), Config: jsontypes.NewNormalizedNull()}
	fresh.fromRecord(decodeRecord(t, `{"id": 5, "plugin": 1, "plugin_info": null,
		"config": {"locale": "de", "api_key": null}}`))
	if fresh.Config.ValueString() != `{"locale":"de"}` {
		t.Errorf("config = %v, want the non-secret settings", fresh.Config)
	}
}
