package localapi

import (
	"strings"
	"testing"
)

func TestPyRepr(t *testing.T) {
	for in, want := range map[string]string{
		`"x"`: `'x'`, `"it's"`: `"it's"`, `"a'b\"c"`: `'a\'b"c'`, `"tab\there"`: `'tab\there'`, `"back\\slash"`: `'back\\slash'`,
		`5`: `5`, `1.5`: `1.5`, `true`: `True`, `false`: `False`, `null`: `None`,
		`[1, "a", null]`: `[1, 'a', None]`, `{"b": [true], "a": {}}`: `{'a': {}, 'b': [True]}`, `[]`: `[]`,
	} {
		v, err := decodeJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got := pyRepr(v); got != want {
			t.Errorf("pyRepr(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestPyStr(t *testing.T) {
	for in, want := range map[string]string{`"x"`: `x`, `"it's"`: `it's`, `""`: ``, `2`: `2`, `false`: `False`, `["x"]`: `['x']`} {
		v, err := decodeJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got := pyStr(v); got != want {
			t.Errorf("pyStr(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestCoerceInt32(t *testing.T) {
	for in, want := range map[string]int64{`3`: 3, `3.0`: 3, `1e3`: 1000, `"42"`: 42, `" -2 "`: -2, `"5.00"`: 5} {
		v, _ := decodeJSON([]byte(in))
		got, e := coerceInt32(v, "order")
		if e != nil || got != want {
			t.Errorf("coerceInt32(%s) = %d, %v", in, got, e)
		}
	}
	for in, code := range map[string]string{`1e20`: "invalid_input", `true`: "invalid_input", `"1.5"`: "invalid_input",
		`[]`: "invalid_input", `null`: "null", `99999999999999999999`: "max_value", `"-3000000000"`: "min_value"} {
		v, _ := decodeJSON([]byte(in))
		if _, e := coerceInt32(v, "order"); e == nil || e.Code != code {
			t.Errorf("coerceInt32(%s) error %v, want code %s", in, e, code)
		}
	}
}

func TestParsePlugins(t *testing.T) {
	plugins, err := LoadPlugins("testdata/plugins.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(plugins) != 2 || plugins[0].Collections()[0] != TransformationConfigs || plugins[1].Collections()[0] != ImportAppConfigs {
		t.Errorf("plugins %+v", plugins)
	}
	if _, err := newCatalog(plugins); err != nil {
		t.Error(err)
	}
	for in, want := range map[string]string{
		`[{"id": 1, "name": "a"}, {"id": 1, "name": "b"}]`:           "used twice",
		`[{"id": 0, "name": "a"}]`:                                   "positive",
		`[{"id": 1, "name": "a", "colour": "red"}]`:                  "unknown field",
		`[{"id": 1, "name": "a", "config_schema": [{}]}]`:            "no key",
		`[{"id": 1, "config_schema": {"k": {"colour": 1}}}]`:         "unknown field",
		`[{"id": 1, "config_schema": {"k": {"key": "j"}}}]`:          `has key "j"`,
		`[{"id": 1, "config_schema": [{"key": "k"}, {"key": "k"}]}]`: "used twice",
		`[{"id": 1, "config_schema": "locale"}]`:                     "a list or an object",
		`{}`:                                                         "cannot unmarshal",
	} {
		if _, err := ParsePlugins([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePlugins(%s) = %v, want an error with %q", in, err, want)
		}
	}
	for i, p := range DefaultPlugins() {
		if p.ID != int64(i+1) {
			t.Errorf("DefaultPlugins()[%d] has id %d: the seeded ids are fixed", i, p.ID)
		}
	}
	// What the architecture promises of the seed: two plugins of each kind
	// at least, a secret setting, a public job taking a required field.
	kinds, secret, requiredJob := map[string]int{}, false, false
	for _, p := range DefaultPlugins() {
		for _, c := range p.Collections() {
			kinds[c]++
		}
		secret = secret || len(p.ConfigSchema.secretKeys()) > 0
		for _, job := range p.PublicJobs {
			for _, f := range job.Payload {
				requiredJob = requiredJob || f.Required
			}
		}
	}
	if kinds[TransformationConfigs] < 2 || kinds[ImportAppConfigs] < 2 || !secret || !requiredJob {
		t.Errorf("seed: plugins by collection %v, a secret setting %v, a job with a required field %v", kinds, secret, requiredJob)
	}
}
