package configresource

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

func TestPluginOf(t *testing.T) {
	t.Parallel()
	type text struct {
		value *string
		known bool
	}
	str := func(s string) text { return text{&s, true} }
	null, unknown := text{nil, true}, text{}
	tests := map[string]struct {
		info              string
		name, description text
		secrets           []string // nil: not known
	}{
		"list form": {
			info: `{"name": "GeoIP", "description": "Adds location", "config_schema": [
				{"key": "api_key", "secret": true}, {"key": "locale"}, {"key": "token", "secret": "yes"},
				{"key": "zero", "secret": 0}, {"key": "empty", "secret": ""}, {"key": "none", "secret": null},
				"a string", {"secret": true}, {"key": 5, "secret": true}]}`,
			name: str("GeoIP"), description: str("Adds location"), secrets: []string{"api_key", "token"},
		},
		"object form: known, nothing secret": {
			info: `{"name": "Currency", "description": "", "config_schema": {"apiKey": {"type": "string", "secret": true}}}`,
			name: str("Currency"), description: str(""), secrets: []string{},
		},
		"name and description null": {
			info: `{"name": null, "description": null, "config_schema": []}`, name: null, description: null, secrets: []string{},
		},
		"no config_schema": {info: `{"name": "", "description": "d"}`, name: str(""), description: str("d")},
		"config_schema of another shape": {
			info: `{"name": "n", "config_schema": "apiKey"}`, name: str("n"), description: unknown,
		},
		"a name that is not text": {
			info: `{"name": 5, "description": ["d"], "config_schema": []}`, name: unknown, description: unknown, secrets: []string{},
		},
		"list page: null":       {info: `null`, name: unknown, description: unknown},
		"absent":                {info: ``, name: unknown, description: unknown},
		"not an object":         {info: `[1]`, name: unknown, description: unknown},
		"not JSON":              {info: `{"name":`, name: unknown, description: unknown},
		"an object, nothing in": {info: `{}`, name: unknown, description: unknown},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := PluginOf(json.RawMessage(tt.info))
			for _, f := range []struct {
				what string
				got  OwnText
				want text
			}{{"name", p.Name, tt.name}, {"description", p.Description, tt.description}} {
				if f.got.Known != f.want.known || (f.got.Text == nil) != (f.want.value == nil) ||
					f.got.Text != nil && *f.got.Text != *f.want.value {
					t.Errorf("%s %+v, want %+v", f.what, f.got, f.want)
				}
			}
			if (p.SecretKeys == nil) != (tt.secrets == nil) {
				t.Fatalf("secret keys %v, want %v", p.SecretKeys, tt.secrets)
			}
			if got := slices.Sorted(maps.Keys(p.SecretKeys)); !slices.Equal(got, tt.secrets) {
				t.Errorf("secret keys %v, want %v", got, tt.secrets)
			}
		})
	}
}

func TestOwnTextShows(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	geoIP := OwnText{Text: str("GeoIP"), Known: true}
	for _, tt := range []struct {
		what            string
		plugin          OwnText
		got             *string
		isPlugins, told bool
	}{
		{"the plugin's text", geoIP, str("GeoIP"), true, true},
		{"text of its own", geoIP, str("Mine"), false, true},
		{"null: always the plugin's", geoIP, nil, true, true},
		{`"": always the plugin's`, OwnText{}, str(""), true, true},
		{"text, plugin not known", OwnText{}, str("GeoIP"), false, false},
		{"text, the plugin's is null", OwnText{Known: true}, str("GeoIP"), false, true},
		{`text, the plugin's is ""`, OwnText{Text: str(""), Known: true}, str("GeoIP"), false, true},
	} {
		isPlugins, told := tt.plugin.Shows(tt.got)
		if isPlugins != tt.isPlugins || told != tt.told {
			t.Errorf("%s: Shows = %v, %v; want %v, %v", tt.what, isPlugins, told, tt.isPlugins, tt.told)
		}
	}
}

func TestSettingKeysOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		schema string
		want   []string
	}{
		{`[{"key":"a","secret":true},{"key":"b"},"junk",{"key":5}]`, []string{"a", "b"}},
		{`{"a":{"type":"string"},"b":{}}`, []string{"a", "b"}},
		{`[]`, []string{}},
		{`null`, nil},
		{`"text"`, nil},
	} {
		got := PluginOf(json.RawMessage(`{"config_schema":` + tc.schema + `}`)).SettingKeys
		if (got == nil) != (tc.want == nil) || len(got) != len(tc.want) {
			t.Errorf("%s: setting keys %v, want %v", tc.schema, got, tc.want)
			continue
		}
		for _, k := range tc.want {
			if !got[k] {
				t.Errorf("%s: setting keys %v, want %v", tc.schema, got, tc.want)
			}
		}
	}
}
