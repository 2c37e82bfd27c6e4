package configresource

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
		"secret and plain":            {geoIPInfo, []string{"api_key"}, true},
		"no secrets":                  {`{"config_schema": []}`, nil, true},
		"list page: null":             {`null`, nil, false},
		"absent":                      {``, nil, false},
		"no config_schema":            {`{"id": 1}`, nil, false},
		"object form: no secret keys": {`{"config_schema": {"apiKey": {"type": "string", "secret": true}}}`, nil, true},
		"config_schema a string":      {`{"config_schema": "apiKey"}`, nil, false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, known := SecretKeys(json.RawMessage(tt.info))
			if known != tt.known || len(got) != len(tt.want) {
				t.Fatalf("SecretKeys = %v, %v; want %v, %v", got, known, tt.want, tt.known)
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
	masked := `"` + SecretMask + `"`
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
		"the same numbers written another way are no change": {
			raw: `{"locale": "en", "n": 1.0}`, secrets: secrets,
			prior: val(`{"locale":"en","n":1}`), want: val(`{"locale":"en","n":1}`),
		},
		"a key set elsewhere shows, to be planned away": {
			raw: `{"locale": "en", "added": 1, "n": 1.0}`, secrets: secrets,
			prior: val(`{"locale":"en","n":1}`), want: val(`{"added":1,"locale":"en","n":1.0}`),
		},
		"a null or empty setting is none": {
			raw: `{"locale": "en", "endpoint": null, "token": ""}`, secrets: map[string]bool{},
			prior: val(`{"locale":"en"}`), want: val(`{"locale":"en"}`),
		},
		"a secret the plugin no longer marks shows": {
			raw: `{"locale": "en", "api_key": "was secret"}`, secrets: map[string]bool{},
			prior: val(`{"locale":"en"}`), want: val(`{"api_key":"was secret","locale":"en"}`),
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
			if got := SettingsFromAPI(json.RawMessage(tt.raw), tt.secrets, tt.prior); !got.Equal(tt.want) {
				t.Errorf("SettingsFromAPI = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSettingsInput(t *testing.T) {
	t.Parallel()
	str := types.StringValue
	tests := map[string]struct {
		plain, secret StringValue
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
			got, err := SettingsInput(tt.plain, tt.secret)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("SettingsInput = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

// TestHoldsSettings: both comparisons want every sent key with an equal
// value; only AsStored takes a masked secret, or no key for a null sent,
// as the same.
func TestHoldsSettings(t *testing.T) {
	t.Parallel()
	masked := `"` + SecretMask + `"`
	stored := Settings{"locale": json.RawMessage(`"en"`), "n": json.RawMessage(`1.0`), "key": json.RawMessage(masked)}
	for _, tc := range []struct {
		sent            string
		exactly, stored bool
	}{
		{`{"locale":"en","n":1}`, true, true},
		{`{"locale":"fr"}`, false, false},
		{`{"other":"x"}`, false, false},
		{`{"key":"s3cret"}`, false, true},
		{`{"gone":null}`, false, true},
		{`[1]`, false, false},
	} {
		if got := HoldsSettings(stored, tc.sent, Exactly); got != tc.exactly {
			t.Errorf("HoldsSettings(%s, Exactly) = %v", tc.sent, got)
		}
		if got := HoldsSettings(stored, tc.sent, AsStored); got != tc.stored {
			t.Errorf("HoldsSettings(%s, AsStored) = %v", tc.sent, got)
		}
	}
}

func TestClearingSecrets(t *testing.T) {
	t.Parallel()
	secrets := map[string]bool{"api_key": true, "token": true}
	for _, tc := range []struct{ in, want string }{
		{`{"api_key":"s"}`, `{"api_key":"s","token":""}`},
		{`{}`, `{"api_key":"","token":""}`},
		{`{"api_key":null,"token":"t"}`, `{"api_key":"","token":"t"}`},
		{`{"other":null}`, `{"api_key":"","other":"","token":""}`},
	} {
		got, err := ClearingSecrets(tc.in, secrets)
		if err != nil || got != tc.want {
			t.Errorf("ClearingSecrets(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	if _, err := ClearingSecrets(`[1]`, secrets); err == nil {
		t.Error("a list was taken for secret settings")
	}
}
