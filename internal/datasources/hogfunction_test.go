package datasources

import "testing"

func TestHogTemplateID(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		url  *string
		want string
		ok   bool
	}{
		{str("https://github.com/PostHog/posthog-plugin-geoip"), "plugin-posthog-plugin-geoip", true},
		{str("inline://semver-flattener"), "plugin-semver-flattener-plugin", true},
		{str("inline://user-agent"), "plugin-user-agent-plugin", true},
		{str("inline://language-url-splitter-app"), "plugin-language-url-splitter-app", true},
		// PostHog replaces the prefixes wherever they occur.
		{str("https://github.com/PostHog/inline://taxonomy-plugin"), "plugin-taxonomy-plugin", true},
		{str("https://github.com/someone/plugin"), "", false},
		{str(""), "", false},
		{str("inline://"), "", false},
		{nil, "", false},
	} {
		got, ok := HogTemplateID(tc.url)
		if got != tc.want || ok != tc.ok {
			t.Errorf("HogTemplateID(%v) = %q, %v; want %q, %v", tc.url, got, ok, tc.want, tc.ok)
		}
	}
}

func TestAnsweredFilters(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		`null`: `{"source":"events"}`,
		`{}`:   `{"source":"events"}`,
		`{"events":[{"id":"$pageview","order":0,"type":"events"}],"bytecode":["_H",1]}`: `{"events":[{"id":"$pageview","type":"events"}],"source":"events"}`,
		`{"source":"person-updates"}`:             `{"source":"person-updates"}`,
		`{"filter_test_accounts":true,"a<b":"&"}`: `{"a\u003cb":"\u0026","filter_test_accounts":true,"source":"events"}`,
	} {
		if got := answeredFilters([]byte(raw)); got != want {
			t.Errorf("answeredFilters(%s) = %s, want %s", raw, got, want)
		}
	}
}

func TestMarshalAsGo(t *testing.T) {
	t.Parallel()
	in := map[string]any{"b": map[string]any{"value": 1e21}, "a": map[string]any{"value": "x<y"}}
	if got, want := marshalAsGo(in), `{"a":{"value":"x\u003cy"},"b":{"value":1e+21}}`; got != want {
		t.Errorf("marshalAsGo = %s, want %s", got, want)
	}
}
