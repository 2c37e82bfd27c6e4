package record

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
