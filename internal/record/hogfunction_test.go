package record

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

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

func TestHogFunctionOf(t *testing.T) {
	t.Parallel()
	geoIP := `{"name":"GeoIP","url":"https://github.com/PostHog/posthog-plugin-geoip","capabilities":{"methods":["processEvent"]},
		"config_schema":[{"key":"api_key","secret":true},{"key":"locale"},{"key":"token","secret":true}]}`
	c := Config{
		Name: types.StringValue("my geoip"), Order: types.Int64Value(3), Enabled: types.BoolValue(true),
		Settings: jsontypes.NewNormalizedValue(`{"locale":"en","n":1.5}`),
	}
	h := hogFunctionOf(&c, json.RawMessage(geoIP), json.RawMessage(`{"locale":"en","n":1.5,"api_key":"`+SecretMask+`","token":""}`))
	if !h.Available.ValueBool() || h.TemplateID.ValueString() != "plugin-posthog-plugin-geoip" || h.Type.ValueString() != "transformation" ||
		h.Name.ValueString() != "GeoIP" || h.ExecutionOrder.ValueInt64() != 3 || !h.Enabled.ValueBool() {
		t.Errorf("hog function %+v", h)
	}
	if got := h.InputsJSON.ValueString(); got != `{"locale":{"value":"en"},"n":{"value":1.5}}` {
		t.Errorf("inputs %s", got)
	}
	if len(h.SecretInputs) != 1 || h.SecretInputs[0].ValueString() != "api_key" {
		t.Errorf("secret inputs %v, want the one set", h.SecretInputs)
	}

	browser := `{"name":null,"capabilities":{"methods":[],"scheduled_tasks":["runEveryHour"]},"config_schema":[]}`
	h = hogFunctionOf(&c, json.RawMessage(browser), json.RawMessage(`{}`))
	if h.Available.ValueBool() || !h.TemplateID.IsNull() || h.Type.ValueString() != "source_webhook" || h.Name.ValueString() != "my geoip" {
		t.Errorf("hog function of a plugin without a url %+v", h)
	}
}
