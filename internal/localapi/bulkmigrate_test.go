package localapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// firstTimeTracker is a plugin whose template takes the config's id too.
var firstTimeTracker = localapi.Plugin{ID: 14, Name: text("First Time Event Tracker"), URL: "https://github.com/PostHog/first-time-event-tracker",
	Capabilities: localapi.Capabilities{Methods: []string{"processEvent"}}}

// mkConfig makes a config through a form at generation 1 and returns its id.
func (a *api) mkConfig(project any, plugin int64, order int, enabled, deleted bool, cfg string) int64 {
	a.t.Helper()
	return id(a.form(http.MethodPost, path(project, tr), full, map[string]string{"plugin": fmt.Sprint(plugin),
		"order": fmt.Sprint(order), "enabled": fmt.Sprint(enabled), "deleted": fmt.Sprint(deleted), "config": cfg}).want(a.t, 201).object(a.t))
}

// TestBulkMigrate: PostHog's bulk migration makes, of each enabled
// transformation config of the project that is not deleted and whose
// plugin has a template, an enabled transformation as a create makes it,
// one per template (a second config of a template is covered by the
// first's function), its inputs as validated (no nulls) and coerced to the
// template's types; then disables the configs it covered, without a change
// log or a new updated_at. The functions are the hog function API's, found
// by their template and execution_order; a second run makes nothing.
func TestBulkMigrate(t *testing.T) {
	a := newAPI(t, localapi.Options{Plugins: append(withMigrator(), firstTimeTracker)})
	filter := a.mkConfig(1, 2, 3, true, false, `{"properties": "$ip", "dropped": "x"}`)
	taxonomy := a.mkConfig(1, 5, 4, true, false, `{}`)
	second := a.mkConfig(1, 5, 5, true, false, `{"defaultNamingConvention": "snake_case"}`)
	geoip := a.mkConfig(1, 1, 1, true, false, `{"api_key": "k"}`)
	agent := a.mkConfig(1, 11, 6, true, false, `{"overrideUserAgentDetails": 1}`)
	tracker := a.mkConfig(1, 14, 7, true, false, `{"events": "signup"}`)
	left := []int64{
		a.mkConfig(1, 2, 8, false, false, `{"properties": "p"}`), // disabled
		a.mkConfig(1, 2, 9, true, true, `{"properties": "p"}`),   // deleted
		a.mkConfig(1, 6, 10, true, false, `{}`),                  // no url
		a.mkConfig(1, migrators[ia], 11, true, false, `{}`),      // an import app
	}
	a.mkConfig(2, 2, 12, true, false, `{"properties": "other"}`) // another project
	a.srv.SetToday(true)                                         // any generation, today's too
	before, err := a.srv.StoredRecords(1)
	if err != nil {
		t.Fatal(err)
	}

	made, err := a.srv.BulkMigrate(1, localapi.BulkMigration{})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		template string
		order    int64
		inputs   string
	}
	wants := map[int64]want{
		filter: {"plugin-property-filter-plugin", 3, `{"properties": {"value": "$ip", "bytecode": ["_H", 1, 32, "$ip"], "order": 0}}`},
		second: {"plugin-taxonomy-plugin", 5, `{"defaultNamingConvention": {"value": "snake_case", "order": 0}}`},
		geoip:  {"plugin-posthog-plugin-geoip", 1, `{}`},
		agent:  {"plugin-user-agent-plugin", 6, `{"overrideUserAgentDetails": {"value": "1", "bytecode": ["_H", 1, 32, "1"], "order": 0}}`},
		tracker: {"plugin-first-time-event-tracker", 7, fmt.Sprintf(`{"events": {"value": "signup", "bytecode": ["_H", 1, 32, "signup"], "order": 0},
			"legacy_plugin_config_id": {"value": "%d", "bytecode": ["_H", 1, 32, "%d"], "order": 1}}`, tracker, tracker)},
	}
	if len(made) != len(wants) {
		t.Fatalf("made %d functions, want %d: %+v", len(made), len(wants), made)
	}
	for _, hf := range made {
		w, ok := wants[*hf.SourceConfigID]
		if !ok || hf.TemplateID != w.template || hf.ExecutionOrder == nil || *hf.ExecutionOrder != w.order || !hf.Enabled ||
			hf.Type != "transformation" || hf.Project != 1 || !jsonEqual(t, hf.Inputs, w.inputs) {
			t.Errorf("function of config %d: %+v, inputs %s; want %+v", *hf.SourceConfigID, hf, hf.Inputs, w)
		}
		if !jsonEqual(t, hf.Filters, `{"source": "events", "bytecode": ["_H", 1, 29]}`) {
			t.Errorf("filters %s", hf.Filters)
		}
		// What a client reads to find it.
		got := a.do(http.MethodGet, hogPath("environments", 1, hf.ID), localapi.KeyOrg, nil).want(t, 200).object(t)
		if as[map[string]any](t, got["template"])["id"] != w.template || got["execution_order"] != float64(w.order) || got["enabled"] != true {
			t.Errorf("answered %v", got)
		}
	}
	// The newest config of a template is the one taken.
	after, err := a.srv.StoredRecords(1)
	if err != nil {
		t.Fatal(err)
	}
	for cid, rec := range after {
		covered := cid == taxonomy || wants[cid].template != ""
		if rec.Enabled == covered && before[cid].Enabled || rec.UpdatedAt != before[cid].UpdatedAt {
			t.Errorf("config %d: enabled %v (was %v), updated_at %d (was %d)", cid, rec.Enabled, before[cid].Enabled, rec.UpdatedAt, before[cid].UpdatedAt)
		}
		if log, _ := a.srv.Activity(1, cid); len(log) != 1 {
			t.Errorf("config %d: the bulk migration logged %+v", cid, log)
		}
	}
	for _, cid := range left {
		if after[cid].Enabled != before[cid].Enabled {
			t.Errorf("config %d changed", cid)
		}
	}
	if other, _ := a.srv.StoredRecords(2); len(other) != 1 {
		t.Errorf("project 2 %+v", other)
	}
	if again, err := a.srv.BulkMigrate(1, localapi.BulkMigration{}); err != nil || len(again) != 0 {
		t.Errorf("a second run made %+v, %v", again, err)
	}
}

// TestBulkMigrateTestMode: the command's test mode names the functions
// "[CDP-TEST-HIDDEN] <plugin's name>" and leaves the configs enabled; a
// second run makes nothing, the first run's functions covering them.
func TestBulkMigrateTestMode(t *testing.T) {
	a := newAPI(t, localapi.Options{DebugRoutes: true})
	cid := a.mkConfig(1, 5, 1, true, false, `{}`)
	nameless := localapi.DefaultPlugins()[4]
	nameless.Name = nil
	if err := a.srv.SetPlugin(nameless); err != nil {
		t.Fatal(err)
	}
	made := a.do(http.MethodPost, "/_localapi/bulk-migrate", "", `{"project": 1, "test_mode": true}`).want(t, 200).array(t)
	if len(made) != 1 || as[map[string]any](t, made[0])["name"] != "[CDP-TEST-HIDDEN] None" {
		t.Errorf("made %v", made)
	}
	if recs, _ := a.srv.StoredRecords(1); !recs[cid].Enabled {
		t.Errorf("test mode disabled the config")
	}
	if again := a.do(http.MethodPost, "/_localapi/bulk-migrate", "", `{"project": 1, "test_mode": true}`).want(t, 200).array(t); len(again) != 0 {
		t.Errorf("second run %v", again)
	}
	a.do(http.MethodPost, "/_localapi/bulk-migrate", "", `{"project": 9}`).want(t, 400)
}

// TestBulkMigrateRefused: one function the serializer refuses (a required
// input left out; one enabled transformation past the limit of 20) fails
// the run, which then makes and disables nothing.
func TestBulkMigrateRefused(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	ok := a.mkConfig(1, 5, 1, true, false, `{}`)
	a.mkConfig(1, 10, 2, true, false, `{}`) // Semver Flattener: properties is required
	_, err := a.srv.BulkMigrate(1, localapi.BulkMigration{})
	if err == nil || !strings.Contains(err.Error(), "inputs__properties") {
		t.Errorf("error %v, want the required input named", err)
	}
	if recs, _ := a.srv.StoredRecords(1); len(a.srv.HogFunctions()) != 0 || !recs[ok].Enabled {
		t.Errorf("a failed run changed something: %+v", a.srv.HogFunctions())
	}

	b := newAPI(t, localapi.Options{})
	b.mkConfig(1, 5, 1, true, false, `{}`)
	for range 20 {
		b.createHog(1, full, map[string]any{"template_id": plainTemplate, "type": "transformation", "enabled": true})
	}
	if _, err := b.srv.BulkMigrate(1, localapi.BulkMigration{}); err == nil || !strings.Contains(err.Error(), "Maximum of 20") {
		t.Errorf("error %v, want the limit", err)
	}
}
