package configresource

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

func TestCheckSettingKeys(t *testing.T) {
	t.Parallel()
	secrets := map[string]bool{"api_key": true}
	str := types.StringValue
	tests := map[string]struct {
		plain, secret record.StringValue
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
			settingsPlan{}.PlanModifyString(ctx, req, &resp)
			if !resp.PlanValue.Equal(tt.want.StringValue) {
				t.Errorf("planned %v, want %v", resp.PlanValue, tt.want)
			}
		})
	}
}
