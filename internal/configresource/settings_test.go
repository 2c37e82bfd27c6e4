package configresource

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestCheckSettingKeys(t *testing.T) {
	t.Parallel()
	secrets := map[string]bool{"api_key": true}
	str := types.StringValue
	tests := map[string]struct {
		plain, secret StringValue
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

// TestPlanSettings: the plan of `config` on an update (a create leaves it
// to the configuration, or to the service when left out).
func TestPlanSettings(t *testing.T) {
	t.Parallel()
	val := jsontypes.NewNormalizedValue
	tests := map[string]struct {
		config                types.String
		state, proposed, want jsontypes.Normalized
	}{
		"left out: kept": {
			config: types.StringNull(), state: val(`{"a":1}`), proposed: jsontypes.NewNormalizedUnknown(), want: val(`{"a":1}`),
		},
		"written differently: the state's text": {
			config: types.StringValue(`{ "b": [1, 2], "a": 1.0 }`), state: val(`{"a":1,"b":[1,2]}`),
			proposed: val(`{ "b": [1, 2], "a": 1.0 }`), want: val(`{"a":1,"b":[1,2]}`),
		},
		"a key the configuration no longer sets: planned away": {
			config: types.StringValue(`{"a":1}`), state: val(`{"a":1,"b":2}`), proposed: val(`{"a":1}`), want: val(`{"a":1}`),
		},
		"changed": {
			config: types.StringValue(`{"a":2}`), state: val(`{"a":1}`), proposed: val(`{"a":2}`), want: val(`{"a":2}`),
		},
		"not known yet": {
			config: types.StringUnknown(), state: val(`{"a":1}`), proposed: jsontypes.NewNormalizedUnknown(),
			want: jsontypes.NewNormalizedUnknown(),
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := planSettings(tt.config, tt.proposed, tt.state); !got.Equal(tt.want) {
				t.Errorf("planned %v, want %v", got, tt.want)
			}
		})
	}
}
