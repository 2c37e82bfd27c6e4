package localapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// newTodayAPI is a local API as the service is today, with configs made at
// generation 1 (which today's service can no longer make) by made.
func newTodayAPI(t *testing.T, made func(a *api)) *api {
	t.Helper()
	a := newAPI(t, localapi.Options{Today: true, Generation: 1})
	if made != nil {
		made(a)
	}
	if err := a.srv.SetGeneration(2); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestTodaySwitch: Options.Today starts generation 2 as today's service;
// the flag survives a move to generation 1 or 3 (which behave as they
// did) and applies again at 2; SetToday(true) moves to generation 2,
// SetToday(false) keeps the generation.
func TestTodaySwitch(t *testing.T) {
	srv, err := localapi.New(localapi.Options{Today: true, NoPluginAccess: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	if srv.Generation() != 2 || !srv.Today() || !srv.NoPluginAccess() {
		t.Errorf("Options{Today: true}: generation %d, today %v", srv.Generation(), srv.Today())
	}
	a := newAPI(t, localapi.Options{Today: true, Generation: 1, DebugRoutes: true})
	rearrange := func() *response {
		return a.do(http.MethodPatch, path(1, tr, "rearrange"), full, map[string]any{"orders": map[string]any{}})
	}
	rearrange().want(t, 200) // generation 1: a legacy key may
	if err := a.srv.SetGeneration(2); err != nil {
		t.Fatal(err)
	}
	rearrange().wantError(t, 403, "authentication_error", "permission_denied", localapi.DetailNoKeyAccessToday, "")
	a.srv.SetToday(false)
	if a.srv.Generation() != 2 || a.srv.Today() {
		t.Errorf("SetToday(false): generation %d, today %v", a.srv.Generation(), a.srv.Today())
	}
	rearrange().want(t, 200) // 2025's generation 2
	if err := a.srv.SetGeneration(3); err != nil {
		t.Fatal(err)
	}
	a.srv.SetToday(true)
	if a.srv.Generation() != 2 || !a.srv.Today() {
		t.Errorf("SetToday(true) at generation 3: generation %d, today %v", a.srv.Generation(), a.srv.Today())
	}

	// The debug route reads and sets both, either left out staying.
	get := func() map[string]any { return a.do("GET", "/_localapi/generation", "", nil).want(t, 200).object(t) }
	if g := get(); g["generation"] != float64(2) || g["today"] != true {
		t.Errorf("GET /_localapi/generation: %v", g)
	}
	a.do("PUT", "/_localapi/generation", "", `{"generation": 1}`).want(t, 204)
	if g := get(); g["generation"] != float64(1) || g["today"] != true {
		t.Errorf("after generation 1: %v", g)
	}
	a.do("PUT", "/_localapi/generation", "", `{"today": false}`).want(t, 204)
	if g := get(); g["generation"] != float64(1) || g["today"] != false {
		t.Errorf("after today false: %v", g)
	}
	a.do("PUT", "/_localapi/generation", "", `{"today": true}`).want(t, 204)
	if g := get(); g["generation"] != float64(2) || g["today"] != true {
		t.Errorf("after today true: %v", g)
	}
	a.do("PUT", "/_localapi/generation", "", `{"generation": 3, "today": false}`).want(t, 204)
	a.do("PUT", "/_localapi/generation", "", `{"generation": 1, "today": true}`).want(t, 204)
	if g := get(); g["generation"] != float64(1) || g["today"] != true {
		t.Errorf("after generation 1 and today: %v", g)
	}
	for _, bad := range []string{`{}`, `{"generation": 4, "today": false}`, `{"generation": 0}`} {
		a.do("PUT", "/_localapi/generation", "", bad).want(t, 400)
	}
	if g := get(); g["generation"] != float64(1) || g["today"] != true {
		t.Errorf("a refused PUT changed the service: %v", g)
	}
}

// TestTodayCreate: today's service makes a hog function only of a form's
// config, for a plugin whose url has a template that is not hidden; its
// enabled is the form's, false when the form leaves it out, as the answer
// shows; a JSON create, a form without config, a plugin without a
// template, GeoIP's hidden template: 400, nothing made (notes' "The
// service as it is in 2026", Creates; PostHog's newest serializer).
func TestTodayCreate(t *testing.T) {
	a := newTodayAPI(t, nil)
	// The body is validated first, as at generation 2.
	a.do(http.MethodPost, path(1, tr), write, map[string]any{"plugin": 5}).
		wantError(t, 400, "validation_error", "required", "This field is required.", "order")
	for _, body := range []map[string]any{
		{"plugin": 5, "order": 1},
		{"plugin": 5, "order": 1, "enabled": true, "config": map[string]any{"defaultNamingConvention": "camelCase"}},
		{"plugin": 3, "order": 1},
	} {
		a.do(http.MethodPost, path(1, tr), write, body).
			wantError(t, 400, "validation_error", "invalid_input", localapi.DetailCreationDisabled, "")
	}
	for _, fields := range []map[string]string{
		{"plugin": "5", "order": "1"},                                 // no config
		{"plugin": "5", "order": "1", "config": ""},                   // an empty one
		{"plugin": "3", "order": "1", "config": `{"bucket": "b"}`},    // an import app: no template
		{"plugin": "1", "order": "1", "config": `{"locale": "en"}`},   // GeoIP's template is hidden
		{"plugin": "5", "order": "1", "enabled": "true", "name": "n"}, // still no config
	} {
		a.form(http.MethodPost, path(1, tr), write, fields).
			wantError(t, 400, "validation_error", "invalid_input", localapi.DetailCreationDisabled, "")
	}
	if hfs := a.srv.HogFunctions(); len(hfs) != 0 {
		t.Fatalf("refused creates made hog functions: %+v", hfs)
	}

	// A form with config: a hog function as enabled as the form says.
	rec := a.form(http.MethodPost, path(1, tr), write, map[string]string{
		"plugin": "2", "order": "3", "config": `{"properties": "$ip"}`,
	}).want(t, 201).object(t)
	if rec["id"] != nil || rec["created_at"] != nil || rec["enabled"] != false {
		t.Errorf("answer %v, want the unsaved config, enabled false", rec)
	}
	if cfg := config(t, rec); cfg["properties"] != "$ip" {
		t.Errorf("config %v", cfg)
	}
	for _, enabled := range []string{"true", "false"} {
		got := a.form(http.MethodPost, path(1, tr), write, map[string]string{
			"plugin": "5", "order": "4", "enabled": enabled, "config": "{}",
		}).want(t, 201).object(t)
		if got["enabled"] != (enabled == "true") {
			t.Errorf("enabled %s: answer %v", enabled, got["enabled"])
		}
	}
	hfs := a.srv.HogFunctions()
	if len(hfs) != 3 || hfs[0].Enabled || hfs[0].ExecutionOrder == nil || *hfs[0].ExecutionOrder != 3 || !hfs[1].Enabled || hfs[2].Enabled {
		t.Errorf("hog functions %+v, want disabled, enabled, disabled", hfs)
	}
	if n := num(a.do(http.MethodGet, path(1, tr), write, nil).want(t, 200).object(t), "count"); n != 0 {
		t.Errorf("today's create stored a config: count %d", n)
	}
	// 2025's generation 2 still makes one of a JSON body (enabled when the
	// body leaves it out), and of GeoIP's hidden template.
	b := newAPI(t, localapi.Options{Generation: localapi.Generation2})
	b.create(1, tr, write, map[string]any{"plugin": 1, "order": 1})
	if hfs := b.srv.HogFunctions(); len(hfs) != 1 || !hfs[0].Enabled || hfs[0].TemplateID != "plugin-posthog-plugin-geoip" {
		t.Errorf("generation 2 create: %+v", hfs)
	}
}

// todayFields are the fields of today's record, in order (notes' "The
// service as it is in 2026": no delivery_rate_24h, no filters).
var todayFields = []string{"id", "plugin", "enabled", "order", "config", "error", "team_id", "plugin_info",
	"created_at", "updated_at", "name", "description", "deleted"}

// wantFields checks that body is an object with exactly fields, in order.
func wantFields(t *testing.T, body []byte, fields []string) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	var keys []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", body)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, as[string](t, tok))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(keys, fields) {
		t.Errorf("fields %v, want %v", keys, fields)
	}
}

// TestTodayRecords: every answer shows today's record, no
// delivery_rate_24h; 2025's generation 2 still has it (null).
func TestTodayRecords(t *testing.T) {
	var rec map[string]any
	a := newTodayAPI(t, func(a *api) {
		rec = a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1, "enabled": true})
	})
	wantFields(t, a.do(http.MethodGet, path(1, tr, id(rec)), full, nil).want(t, 200).body, todayFields)
	wantFields(t, a.do(http.MethodPatch, path(1, tr, id(rec)), full, map[string]any{"name": "n"}).want(t, 200).body, todayFields)
	page := a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200).object(t)
	for _, r := range results(t, page) {
		if _, has := r["delivery_rate_24h"]; has || len(r) != len(todayFields) {
			t.Errorf("listed %v", r)
		}
	}
	created := a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "5", "order": "2", "config": "{}"}).want(t, 201)
	wantFields(t, created.body, todayFields)

	a.srv.SetToday(false)
	got := a.do(http.MethodGet, path(1, tr, id(rec)), full, nil).want(t, 200).object(t)
	if v, has := got["delivery_rate_24h"]; !has || v != nil {
		t.Errorf("generation 2: delivery_rate_24h %v, %v", v, has)
	}
}

// TestTodayNotFound: job and every path with no route answer the JSON 404
// "Endpoint not found.", before authentication; an unknown record is
// still "Not found.", and generation 3 stays as it was.
func TestTodayNotFound(t *testing.T) {
	var rec map[string]any
	a := newTodayAPI(t, func(a *api) { rec = a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1}) })
	for _, p := range []string{path(1, tr, id(rec), "job"), path(1, tr, id(rec), "nothing"), path(1, "pipeline_destination_configs"),
		"/api/nothing/", "/", "/api/organizations/@current/pipeline_destinations/", "/api/organizations/@current/plugins/1/source/"} {
		for _, key := range []string{"", full, "phx_bad"} {
			a.do(http.MethodPost, p, key, map[string]any{}).wantError(t, 404, "invalid_request", "not_found", localapi.DetailEndpointNotFound, "")
		}
	}
	a.do(http.MethodGet, path(1, tr, 424242), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	a.do(http.MethodGet, "/api/organizations/@current/plugins/424242/", full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	if err := a.srv.SetGeneration(3); err != nil {
		t.Fatal(err)
	}
	a.do(http.MethodGet, path(1, tr), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	a.do(http.MethodGet, "/api/nothing/", full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
}

// TestImportAppsRule: the import apps hold the configs of plugins with
// scheduled tasks and of plugins whose methods (an empty list too) hold
// none of onEvent, composeWebhook and processEvent, in every generation
// that has the collection and on today's service alike (the notes'
// Records: "this rule holds in every version that has the collection");
// so does the pipeline_import_apps listing. A plugin without methods, or
// with one of them, is not one.
func TestImportAppsRule(t *testing.T) {
	extra := []localapi.Plugin{
		{ID: 12, Name: text("Empty methods"), Capabilities: localapi.Capabilities{Methods: []string{}}},
		{ID: 13, Name: text("Setup only"), Capabilities: localapi.Capabilities{Methods: []string{"setupPlugin"}}},
		{ID: 14, Name: text("Destination"), Capabilities: localapi.Capabilities{Methods: []string{"onEvent"}}},
		{ID: 15, Name: text("Webhook"), Capabilities: localapi.Capabilities{Methods: []string{"composeWebhook", "setupPlugin"}}},
		{ID: 16, Name: text("Site app")}, // no methods at all
	}
	want := []int64{12, 13}
	recs := map[int64]int64{}
	a := newTodayAPI(t, func(a *api) {
		for _, p := range extra {
			if err := a.srv.SetPlugin(p); err != nil {
				t.Fatal(err)
			}
			recs[p.ID] = id(a.create(1, ia, full, map[string]any{"plugin": p.ID, "order": 1, "enabled": true}))
		}
	})
	modes := []struct {
		name  string
		gen   int
		today bool
	}{{"generation 1", 1, false}, {"generation 2", 2, false}, {"today", 2, true}}
	for _, m := range modes {
		a.srv.SetToday(m.today)
		if err := a.srv.SetGeneration(m.gen); err != nil {
			t.Fatal(err)
		}
		var listed []int64
		for _, r := range results(t, a.do(http.MethodGet, path(1, ia), star, nil).want(t, 200).object(t)) {
			listed = append(listed, num(r, "plugin"))
		}
		if !slices.Equal(listed, want) {
			t.Errorf("%s: import apps of plugins %v, want %v", m.name, listed, want)
		}
		for _, p := range extra {
			status := 404
			if slices.Contains(want, p.ID) {
				status = 200
			}
			a.do(http.MethodGet, path(1, ia, recs[p.ID]), star, nil).want(t, status)
			a.do(http.MethodGet, path(1, tr, recs[p.ID]), star, nil).want(t, 404)
			a.do(http.MethodGet, orgPath("@current", "pipeline_import_apps", p.ID), star, nil).want(t, status)
		}
		var ids []int64
		for _, p := range results(t, a.do(http.MethodGet, orgPath("@current", "pipeline_import_apps"), star, nil).want(t, 200).object(t)) {
			ids = append(ids, id(p))
		}
		if wantIDs := append(slices.Clone(listings[2].ids), want...); !slices.Equal(ids, wantIDs) {
			t.Errorf("%s: pipeline_import_apps %v, want %v", m.name, ids, wantIDs)
		}
	}
	for _, p := range extra {
		if got, wantIn := p.Collections(), slices.Contains(want, p.ID); !slices.Equal(got, map[bool][]string{true: {ia}}[wantIn]) {
			t.Errorf("plugin %d: Collections %v", p.ID, got)
		}
	}
}

// TestTodaySeededKeys: KeyFull behaves as "*" on today's service: every
// record operation and the plugin listings, no custom action; the keys
// limited to project 1 still get the listings' 403.
func TestTodaySeededKeys(t *testing.T) {
	var rec map[string]any
	a := newTodayAPI(t, func(a *api) { rec = a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1, "enabled": true}) })
	for key, status := range map[string]int{full: 200, star: 200, localapi.KeyOrg: 200, write: 403, read: 403} {
		a.do(http.MethodGet, orgPath("@current", "plugins"), key, nil).want(t, status)
	}
	a.do(http.MethodGet, path(1, tr, id(rec)), full, nil).want(t, 200)
	a.do(http.MethodPatch, path(1, tr, id(rec)), full, map[string]any{"order": 2}).want(t, 200)
	for _, p := range []string{path(1, tr, id(rec), "frontend"), path(1, tr, id(rec), "activity")} {
		a.do(http.MethodGet, p, full, nil).wantError(t, 403, "authentication_error", "permission_denied", localapi.DetailNoKeyAccessToday, "")
	}
	a.do(http.MethodPost, path(1, tr, id(rec), "migrate"), full, nil).wantError(t, 403, "authentication_error", "permission_denied", localapi.DetailNoKeyAccessToday, "")
	a.do(http.MethodDelete, path(1, tr, id(rec)), full, nil).want(t, 204)
}

// TestNoPluginAccess: an organization whose plugin access is below
// "config" gets 400 on create (after the body's validation, before today's
// JSON refusal), sees no config (lists empty, record routes 404, DELETE a
// 404 without a body), 400 on rearrange, and 403 on the plugin listings
// after the key's own checks; at every generation.
func TestNoPluginAccess(t *testing.T) {
	for _, today := range []bool{false, true} {
		t.Run(modeName(localapi.VersionB, today), func(t *testing.T) {
			var rec map[string]any
			a := newAPI(t, localapi.Options{Today: today, Generation: 1, DebugRoutes: true})
			rec = a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1, "enabled": true})
			if today {
				if err := a.srv.SetGeneration(2); err != nil {
					t.Fatal(err)
				}
			}
			a.do("PUT", "/_localapi/plugin-access", "", `{"no_plugin_access": true}`).want(t, 204)
			if got := a.do("GET", "/_localapi/plugin-access", "", nil).want(t, 200).object(t); got["no_plugin_access"] != true || !a.srv.NoPluginAccess() {
				t.Errorf("plugin-access route: %v", got)
			}
			a.do(http.MethodPost, path(1, tr), full, map[string]any{"plugin": 1}).wantError(t, 400, "validation_error", "required", "This field is required.", "order")
			a.do(http.MethodPost, path(1, tr), full, map[string]any{"plugin": 1, "order": 1}).
				wantError(t, 400, "validation_error", "invalid_input", localapi.DetailNoPluginAccess, "")
			a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "config": "{}"}).
				wantError(t, 400, "validation_error", "invalid_input", localapi.DetailNoPluginAccess, "")
			if page := a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200).object(t); num(page, "count") != 0 || len(results(t, page)) != 0 {
				t.Errorf("list: %v", page)
			}
			a.do(http.MethodGet, path(1, tr, id(rec)), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
			a.do(http.MethodPatch, path(1, tr, id(rec)), full, map[string]any{"order": 5}).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
			if r := a.do(http.MethodDelete, path(1, tr, id(rec)), full, nil).want(t, 404); len(r.body) != 0 {
				t.Errorf("DELETE answered %s", r.body)
			}
			if !today {
				a.do(http.MethodGet, path(1, tr, id(rec), "frontend"), full, nil).want(t, 404)
				a.do(http.MethodPatch, path(1, tr, "rearrange"), full, map[string]any{"orders": map[string]any{}}).
					wantError(t, 400, "validation_error", "invalid_input", localapi.DetailNoPluginAccess, "")
			}
			for _, key := range []string{full, localapi.KeyOrg} {
				a.do(http.MethodGet, orgPath("@current", "plugins"), key, nil).
					wantError(t, 403, "authentication_error", "permission_denied", localapi.DetailPluginAccessInsufficient, "")
			}
			a.do(http.MethodGet, orgPath("@current", "plugins"), write, nil).
				wantError(t, 403, "authentication_error", "permission_denied", "API keys with scoped projects are only supported on project-based endpoints.", "")
			if hfs := a.srv.HogFunctions(); len(hfs) != 0 {
				t.Errorf("hog functions %+v", hfs)
			}

			a.srv.SetNoPluginAccess(false)
			got := a.do(http.MethodGet, path(1, tr, id(rec)), full, nil).want(t, 200).object(t)
			if got["enabled"] != true || got["order"] != float64(1) {
				t.Errorf("the config changed while the organization had no access: %v", got)
			}
			a.do(http.MethodGet, orgPath("@current", "plugins"), full, nil).want(t, 200)
		})
	}
}
