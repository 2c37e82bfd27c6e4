package localapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

const mask = "**************** POSTHOG SECRET FIELD ****************"

func config(t *testing.T, rec map[string]any) map[string]any {
	t.Helper()
	cfg, ok := rec["config"].(map[string]any)
	if !ok {
		t.Fatalf("config is %#v, want an object", rec["config"])
	}
	return cfg
}

func TestMultipartConfigAndSecrets(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	// GeoIP (1): api_key is secret, locale is not.
	r := a.form(http.MethodPost, path(1, tr), full, map[string]string{
		"plugin": "1", "order": "4", "enabled": "true", "name": "geo",
		"config": `{"api_key": "s3cr3t", "locale": "en"}`,
	}).want(t, 201).object(t)
	if r["enabled"] != true || num(r, "order") != 4 || r["name"] != "geo" {
		t.Errorf("form fields: %v", r)
	}
	if cfg := config(t, r); cfg["api_key"] != mask || cfg["locale"] != "en" {
		t.Errorf("config after create %v", cfg)
	}
	p := path(1, tr, id(r))
	got := a.do(http.MethodGet, p, full, nil).want(t, 200).object(t)
	if cfg := config(t, got); cfg["api_key"] != mask || cfg["locale"] != "en" {
		t.Errorf("config on retrieve %v", cfg)
	}

	// JSON bodies cannot set config.
	got = a.do(http.MethodPatch, p, full, map[string]any{"config": map[string]any{"locale": "de"}}).want(t, 200).object(t)
	if config(t, got)["locale"] != "en" {
		t.Errorf("JSON config was applied: %v", config(t, got))
	}

	// Secret left out: kept. Non-secret keys are replaced by what is sent.
	got = a.form(http.MethodPatch, p, full, map[string]string{"config": `{"locale": "fr"}`}).want(t, 200).object(t)
	if cfg := config(t, got); cfg["api_key"] != mask || cfg["locale"] != "fr" || len(cfg) != 2 {
		t.Errorf("secret omitted: %v", cfg)
	}
	// Secret sent as null: kept. A non-secret key left out is dropped.
	got = a.form(http.MethodPatch, p, full, map[string]string{"config": `{"api_key": null}`}).want(t, 200).object(t)
	if cfg := config(t, got); cfg["api_key"] != mask || len(cfg) != 1 {
		t.Errorf("secret null: %v", cfg)
	}
	// Secret replaced, then read through the list.
	a.form(http.MethodPatch, p, full, map[string]string{"config": `{"api_key": "other", "locale": "nl"}`}).want(t, 200)
	page := a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200).object(t)
	if cfg := config(t, results(t, page)[0]); cfg["api_key"] != mask || cfg["locale"] != "nl" {
		t.Errorf("list config %v", cfg)
	}
	// An empty secret is not masked (the live check is truthiness).
	got = a.form(http.MethodPatch, p, full, map[string]string{"config": `{"api_key": ""}`}).want(t, 200).object(t)
	if cfg := config(t, got); cfg["api_key"] != "" {
		t.Errorf("empty secret: %v", cfg)
	}
	// An empty config field changes nothing.
	got = a.form(http.MethodPatch, p, full, map[string]string{"config": "", "order": "9"}).want(t, 200).object(t)
	if cfg := config(t, got); len(cfg) != 1 || num(got, "order") != 9 {
		t.Errorf("empty config field: %v", got)
	}
}

func TestMultipartSecretNeverSetReadsNull(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.create(1, ia, full, map[string]any{"plugin": 3, "order": 1})
	got := a.form(http.MethodPatch, path(1, ia, id(rec)), full, map[string]string{"config": `{"bucket": "b"}`}).want(t, 200).object(t)
	cfg := config(t, got)
	// As live: the kept value of a secret that was never set is null.
	if v, ok := cfg["aws_secret_access_key"]; !ok || v != nil || cfg["bucket"] != "b" {
		t.Errorf("config %v", cfg)
	}
}

func TestMultipartFieldForms(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.form(http.MethodPost, path(1, tr), full, map[string]string{
		"plugin": "2", "order": "1", "name": "", "description": "d", "deleted": "false",
		"filters": `{"events": [{"type": "events", "id": "$pageview"}]}`,
	}).want(t, 201).object(t)
	if rec["name"] != *pluginByID(2).Name || rec["description"] != "d" {
		t.Errorf("fields %v", rec)
	}
	f := as[map[string]any](t, as[[]any](t, as[map[string]any](t, rec["filters"])["events"])[0])
	if f["id"] != "$pageview" || f["properties"] == nil {
		t.Errorf("filters %v", rec["filters"])
	}
	p := path(1, tr, id(rec))
	// An empty form value means null, but filters is JSON text: empty is
	// not JSON. {} clears them.
	a.form(http.MethodPatch, p, full, map[string]string{"filters": "", "description": ""}).
		wantError(t, 400, "validation_error", "invalid_input", "Value must be valid JSON.", "filters")
	got := a.form(http.MethodPatch, p, full, map[string]string{"filters": "{}", "description": ""}).want(t, 200).object(t)
	if len(as[map[string]any](t, got["filters"])) != 0 || got["description"] != *pluginByID(2).Description {
		t.Errorf("after empty values %v", got)
	}
	// Forms are authorised like JSON bodies: a read-only key cannot write.
	a.form(http.MethodPatch, p, read, map[string]string{"order": "3"}).wantError(t, 403, "authentication_error", "permission_denied", "API key missing required scope 'plugin:write'", "")
	// Form values are validated like JSON ones.
	a.form(http.MethodPatch, p, full, map[string]string{"order": "x"}).wantError(t, 400, "validation_error", "invalid_input", "A valid integer is required.", "order")
	a.form(http.MethodPatch, p, full, map[string]string{"enabled": "maybe"}).wantError(t, 400, "validation_error", "invalid_input", "Must be a valid boolean.", "enabled")
	a.form(http.MethodPatch, p, full, map[string]string{"filters": "{"}).wantError(t, 400, "validation_error", "invalid_input", "Value must be valid JSON.", "filters")
	a.form(http.MethodPatch, p, full, map[string]string{"config": "{"}).wantError(t, 400, "validation_error", "invalid_input", "Value must be valid JSON.", "config")
	a.form(http.MethodPatch, p, full, map[string]string{"config": "[1]"}).wantError(t, 400, "validation_error", "not_a_dict", `Expected a dictionary of items but got type "list".`, "config")
	a.form(http.MethodPost, path(1, tr), full, map[string]string{"order": "1"}).wantError(t, 400, "validation_error", "required", "This field is required.", "plugin")
	a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "", "order": "1"}).wantError(t, 400, "validation_error", "null", "This field may not be null.", "plugin")

	// A urlencoded form works the same way.
	form := url.Values{"plugin": {"1"}, "order": {"2"}, "config": {`{"locale":"pt"}`}}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, a.url+path(1, tr), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	got = a.send(req, full).want(t, 201).object(t)
	if config(t, got)["locale"] != "pt" {
		t.Errorf("urlencoded config %v", got["config"])
	}
}
