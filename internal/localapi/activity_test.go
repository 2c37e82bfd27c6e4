package localapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestActivity: creates (generation 1), changes, rearranges, deletes and
// migrations are logged whatever the generation, and the activity action
// (generation 2) answers the log newest first, in PostHog's shape, secrets
// masked.
func TestActivity(t *testing.T) {
	a := newAPI(t, localapi.Options{Plugins: withMigrator()})
	rec := a.form(http.MethodPost, path(1, tr), full, map[string]string{
		"plugin": fmt.Sprint(migrators[tr]), "order": "1", "enabled": "true", "config": `{"sendgridApiKey": "first-secret", "customFields": "en"}`,
	}).want(t, 201).object(t)
	p := path(1, tr, id(rec))
	a.form(http.MethodPatch, p, full, map[string]string{"name": "geo", "config": `{"sendgridApiKey": "second-secret", "customFields": "en"}`}).want(t, 200)
	a.do(http.MethodPatch, p, full, map[string]any{"name": "geo"}).want(t, 200) // changes nothing: not logged
	// Keyed by plugin id at generation 1 (version B).
	a.do(http.MethodPatch, path(1, tr, "rearrange"), full, map[string]any{"orders": map[string]any{fmt.Sprint(migrators[tr]): 4}}).want(t, 200)
	a.do(http.MethodDelete, p, full, nil).want(t, 204)
	a.do(http.MethodGet, p+"activity/", full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	if err := a.srv.SetGeneration(2); err != nil {
		t.Fatal(err)
	}
	hf := a.do(http.MethodPost, p+"migrate/", full, nil).want(t, 200).object(t)

	r := a.do(http.MethodGet, p+"activity/", full, nil).want(t, 200)
	if strings.Contains(string(r.body), "first-secret") || strings.Contains(string(r.body), "second-secret") {
		t.Fatalf("a secret in the activity log: %s", r.body)
	}
	page := r.object(t)
	if page["next"] != nil || page["previous"] != nil {
		t.Errorf("one page: next %v previous %v", page["next"], page["previous"])
	}
	entries := results(t, page)
	type change struct {
		field         string
		before, after any
	}
	want := []struct {
		activity string
		changes  []change
	}{
		{"migrated", []change{{"hog_function", nil, hf["id"]}}},
		{"deleted", []change{{"enabled", true, false}}},
		{"updated", []change{{"order", float64(1), float64(4)}}},
		{"updated", []change{{"name", nil, "geo"}, {"config", map[string]any{"sendgridApiKey": mask, "customFields": "en"}, map[string]any{"sendgridApiKey": mask, "customFields": "en"}}}},
		{"created", nil},
	}
	if len(entries) != len(want) {
		t.Fatalf("%d entries, want %d: %s", len(entries), len(want), r.body)
	}
	for i, w := range want {
		e := entries[i]
		if e["activity"] != w.activity || e["scope"] != "PluginConfig" || e["item_id"] != fmt.Sprint(id(rec)) ||
			e["user"] != nil || !uuidLike.MatchString(as[string](t, e["id"])) || !isoMicros.MatchString(as[string](t, e["created_at"])) {
			t.Errorf("entry %d: %v", i, e)
		}
		detail := as[map[string]any](t, e["detail"])
		for _, k := range []string{"name", "short_id", "type", "changes", "merge", "trigger"} {
			if _, ok := detail[k]; !ok {
				t.Errorf("entry %d: detail has no %s: %v", i, k, detail)
			}
		}
		changes, _ := detail["changes"].([]any)
		if len(changes) != len(w.changes) {
			t.Errorf("entry %d (%s): changes %v, want %v", i, w.activity, detail["changes"], w.changes)
			continue
		}
		for j, wc := range w.changes {
			c := as[map[string]any](t, changes[j])
			if c["field"] != wc.field || fmt.Sprint(c["before"]) != fmt.Sprint(wc.before) || fmt.Sprint(c["after"]) != fmt.Sprint(wc.after) {
				t.Errorf("entry %d (%s): change %v, want %+v", i, w.activity, c, wc)
			}
		}
	}
	if detail := as[map[string]any](t, entries[0]["detail"]); detail["name"] != "geo" {
		t.Errorf("detail name %v, want the config's name", detail["name"])
	}

	// The Go view is the same log.
	log, err := a.srv.Activity(1, id(rec))
	if err != nil || len(log) != len(entries) || log[0].ID != entries[0]["id"] || log[0].Activity != "migrated" || log[4].ConfigID != id(rec) {
		t.Errorf("Activity() = %+v, %v", log, err)
	}
	// Pages of limit/offset, like the lists.
	first := a.do(http.MethodGet, p+"activity/?limit=2", full, nil).want(t, 200).object(t)
	if len(results(t, first)) != 2 || !strings.HasSuffix(as[string](t, first["next"]), "limit=2&offset=2") {
		t.Errorf("first page %v", first)
	}
	last := a.do(http.MethodGet, p+"activity/?limit=2&offset=4", full, nil).want(t, 200).object(t)
	if got := results(t, last); len(got) != 1 || got[0]["activity"] != "created" || last["next"] != nil || last["previous"] == nil {
		t.Errorf("last page %v", last)
	}
	// Only configs the collection shows, of the project.
	a.do(http.MethodGet, path(1, ia, id(rec), "activity"), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	a.do(http.MethodGet, path(2, tr, id(rec), "activity"), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	// A generation 2 create saves no config and logs nothing.
	a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
	if log, _ := a.srv.Activity(1, id(rec)+1); len(log) != 0 {
		t.Errorf("activity of a config never saved: %+v", log)
	}
}
