package localapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

var uuidLike = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// newAPIAt is a local API at generation gen.
func newAPIAt(t *testing.T, gen int) *api {
	t.Helper()
	return newAPI(t, localapi.Options{Generation: gen})
}

// TestGeneration2CreateMakesHogFunction: a create of a config whose
// plugin's url has a template makes the hog function the notes' "What a
// create or a bulk migration makes" describes (the template's type,
// description, filters, code, icon and inputs_schema; the plugin's name;
// the settings cut to the template's schema; the order as
// execution_order; the form's enabled) and answers the unsaved config.
func TestGeneration2CreateMakesHogFunction(t *testing.T) {
	a := newAPIAt(t, 2)
	start := time.Now().Add(-time.Second)
	rec := a.form(http.MethodPost, path(1, tr), full, map[string]string{
		"plugin": "2", "order": "7", "enabled": "true", "name": " mine ", "description": "my own",
		"filters": `{"events": [{"type": "nonsense"}]}`, // no such field: ignored
		"config":  `{"properties": "$ip,email", "dropped": "x"}`,
	}).want(t, 201).object(t)

	// The unsaved config: no id, no timestamps, no filters field.
	want := []string{"id", "plugin", "enabled", "order", "config", "error", "team_id", "plugin_info",
		"delivery_rate_24h", "created_at", "updated_at", "name", "description", "deleted"}
	if len(rec) != len(want) {
		t.Errorf("fields %v, want %v", rec, want)
	}
	checks := map[string]any{"id": nil, "created_at": nil, "updated_at": nil, "plugin": float64(2),
		"enabled": true, "order": float64(7), "name": "mine", "description": "my own",
		"team_id": float64(1), "deleted": false, "error": nil, "delivery_rate_24h": nil}
	for k, v := range checks {
		if got, ok := rec[k]; !ok || got != v {
			t.Errorf("%s = %#v, want %#v", k, got, v)
		}
	}
	if cfg := config(t, rec); cfg["properties"] != "$ip,email" || cfg["dropped"] != "x" {
		t.Errorf("config %v", cfg)
	}

	// Exactly one hog function, and no config.
	hfs := a.srv.HogFunctions()
	if len(hfs) != 1 {
		t.Fatalf("hog functions %+v, want 1", hfs)
	}
	hf := hfs[0]
	if !uuidLike.MatchString(hf.ID) || hf.Project != 1 || hf.Plugin != 2 || hf.Name != "Property Filter" ||
		hf.Description != "This plugin will set all configured properties to null inside an ingested event." ||
		!hf.Enabled || hf.SourceConfigID != nil || hf.Type != "transformation" || hf.TemplateID != "plugin-property-filter-plugin" ||
		hf.ExecutionOrder == nil || *hf.ExecutionOrder != 7 || hf.CreatedAt.Before(start) || hf.Hog == nil || *hf.Hog != "return event" ||
		hf.IconURL == nil || *hf.IconURL != "https://raw.githubusercontent.com/posthog/property-filter-plugin/main/logo.png" {
		t.Errorf("hog function %+v", hf)
	}
	if !jsonEqual(t, hf.Filters, `{"source": "events", "bytecode": ["_H", 1, 29]}`) {
		t.Errorf("filters %s, want PostHog's default filters with their bytecode", hf.Filters)
	}
	if !jsonEqual(t, hf.InputsSchema, `[{"key": "properties", "type": "string", "required": true, "secret": false, "default": ""}]`) {
		t.Errorf("inputs_schema %s", hf.InputsSchema)
	}
	// The settings the template's schema names, compiled: the others are dropped.
	if !jsonEqual(t, hf.Inputs, `{"properties": {"value": "$ip,email", "bytecode": ["_H", 1, 32, "$ip,email"], "order": 0}}`) {
		t.Errorf("inputs %s", hf.Inputs)
	}
	c := a.srv.Counters()
	if c["create"] != 1 || c["create:"+tr] != 1 {
		t.Errorf("counters create %d, create:%s %d", c["create"], tr, c["create:"+tr])
	}
	if n := num(a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200).object(t), "count"); n != 0 {
		t.Errorf("a generation 2 create stored a config: count %d", n)
	}

	// Sending it again makes a second one. A form that leaves enabled out
	// makes it disabled, a JSON body enabled (2025's generation 2 reads
	// JSON bodies: without config, no inputs but the template's defaults).
	a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "2", "order": "1", "config": `{"properties": "a"}`}).want(t, 201)
	a.create(1, tr, full, map[string]any{"plugin": 5, "order": 1})
	hfs = a.srv.HogFunctions()
	if len(hfs) != 3 || hfs[1].Enabled || hfs[0].ID == hfs[1].ID || !hfs[2].Enabled || hfs[2].TemplateID != "plugin-taxonomy-plugin" ||
		!jsonEqual(t, hfs[2].Inputs, `{"defaultNamingConvention": {"value": "camelCase", "order": 0}}`) {
		t.Errorf("second creates: %+v", hfs)
	}
	// GeoIP's template keeps none of its settings (at 2025's generation 2
	// its being hidden refuses nothing).
	a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "config": `{"api_key": "s", "locale": "de"}`}).want(t, 201)
	if hfs := a.srv.HogFunctions(); len(hfs) != 4 || hfs[3].TemplateID != "plugin-posthog-plugin-geoip" || string(hfs[3].Inputs) != "{}" {
		t.Errorf("GeoIP's hog function %+v", hfs[3])
	}
	if err := a.srv.ResetHogFunctions(); err != nil || len(a.srv.HogFunctions()) != 0 {
		t.Errorf("ResetHogFunctions: %v, left %d", err, len(a.srv.HogFunctions()))
	}
}

// TestGeneration2CreateRefusals: a config whose plugin's url has no
// template (import apps, plugins written in the browser), or whose hog
// function the serializer refuses, makes nothing; the body is validated
// first, as at generation 1.
func TestGeneration2CreateRefusals(t *testing.T) {
	a := newAPIAt(t, 2)
	cases := []struct {
		name               string
		coll               string
		form               map[string]string
		code, detail, attr string
	}{
		{"an import app", ia, map[string]string{"plugin": "3", "order": "1", "config": `{"bucket": "b"}`}, "invalid_input", localapi.DetailCreationDisabled, ""},
		{"another import app", ia, map[string]string{"plugin": "4", "order": "1", "config": `{}`}, "invalid_input", localapi.DetailCreationDisabled, ""},
		{"no url", tr, map[string]string{"plugin": "6", "order": "1", "config": `{}`}, "invalid_input", localapi.DetailCreationDisabled, ""},
		{"filters ignored", ia, map[string]string{"plugin": "3", "order": "1", "filters": "x"}, "invalid_input", localapi.DetailCreationDisabled, ""},
		{"a required input left out", tr, map[string]string{"plugin": "2", "order": "1", "config": `{}`}, "invalid_input", localapi.DetailCreationDisabled, ""},
		{"a required input empty", tr, map[string]string{"plugin": "10", "order": "1", "config": `{"properties": ""}`}, "invalid_input", localapi.DetailCreationDisabled, ""},
		{"an input of the wrong type", tr, map[string]string{"plugin": "2", "order": "1", "config": `{"properties": 5}`}, "invalid_input", localapi.DetailCreationDisabled, ""},
		{"an order past execution_order's", tr, map[string]string{"plugin": "5", "order": "40000", "config": `{}`}, "invalid_input", localapi.DetailCreationDisabled, ""},
		// The body is validated first, as at generation 1.
		{"no order", tr, map[string]string{"plugin": "2"}, "required", "This field is required.", "order"},
		{"unknown plugin", tr, map[string]string{"plugin": "99", "order": "1"}, "does_not_exist", `Invalid pk "99" - object does not exist.`, "plugin"},
		{"long name", ia, map[string]string{"plugin": "3", "order": "1", "name": strings.Repeat("n", 401)}, "max_length", "Ensure this field has no more than 400 characters.", "name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a.form(http.MethodPost, path(1, c.coll), full, c.form).wantError(t, 400, "validation_error", c.code, c.detail, c.attr)
		})
	}
	if hfs := a.srv.HogFunctions(); len(hfs) != 0 {
		t.Errorf("a refused create made hog functions: %+v", hfs)
	}
	if c := a.srv.Counters(); c["create"] != int64(len(cases)) {
		t.Errorf("refused creates are counted too: %v", c)
	}
}

// TestGeneration2CreateOfEveryTemplate: the plugin-<slug> template of a
// plugin's url is found by PostHog's slug rule for every legacy template,
// from its plugin's url and the inline urls that map to it, whatever the
// plugin's kind (a destination shows in no collection, and the create does
// not look); the function takes the template's type, and its name when the
// plugin has none. A url of no template makes nothing.
func TestGeneration2CreateOfEveryTemplate(t *testing.T) {
	for _, tpl := range embeddedLegacyTemplates(t) {
		urls := append([]string{tpl.PluginURL}, tpl.AlsoMatches...)
		for _, url := range urls {
			t.Run(url, func(t *testing.T) {
				p := localapi.Plugin{ID: 1, URL: url, Capabilities: localapi.Capabilities{Methods: []string{"onEvent"}}}
				a := newAPI(t, localapi.Options{Generation: 2, Plugins: []localapi.Plugin{p}})
				settings := map[string]any{}
				for _, in := range tpl.InputsSchema {
					settings[in.Key] = sampleInput(in)
				}
				cfg, err := json.Marshal(settings)
				if err != nil {
					t.Fatal(err)
				}
				a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "config": string(cfg)}).want(t, 201)
				hfs := a.srv.HogFunctions()
				if len(hfs) != 1 || hfs[0].TemplateID != tpl.ID || hfs[0].Type != tpl.Type || hfs[0].Name != tpl.Name {
					t.Errorf("hog functions %+v, want one of template %s, type %s, named %q", hfs, tpl.ID, tpl.Type, tpl.Name)
				}
			})
		}
	}
	for _, url := range []string{"inline://event-sequence-timer", "https://github.com/PostHog/GeoIP", "https://github.com/posthog/posthog-plugin-geoip"} {
		p := localapi.Plugin{ID: 1, URL: url, Capabilities: localapi.Capabilities{Methods: []string{"processEvent"}}}
		a := newAPI(t, localapi.Options{Generation: 2, Plugins: []localapi.Plugin{p}})
		a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "config": "{}"}).
			wantError(t, 400, "validation_error", "invalid_input", localapi.DetailCreationDisabled, "")
	}
}

// sampleInput is a value the input's type takes.
func sampleInput(in templateInput) any {
	switch in.Type {
	case "choice":
		return in.Choices[0]
	case "json", "dictionary":
		return map[string]any{"a": "b"}
	}
	return "x"
}

// TestGeneration2Records: configs made at generation 1 are read, listed,
// updated, ordered, deleted and shown as generation 1 did, except that
// filters are gone and job is 404; lists hide deleted configs, as at
// generation 1.
func TestGeneration2Records(t *testing.T) {
	for _, c := range collections {
		t.Run(c.name, func(t *testing.T) {
			a := newAPI(t, localapi.Options{})
			filters := map[string]any{"events": []any{map[string]any{"type": "events", "id": "$pageview"}}}
			mk := func(order int, plugin int64, deleted bool) int64 {
				return id(a.create(1, c.name, full, map[string]any{"plugin": plugin, "order": order, "enabled": true,
					"deleted": deleted, "filters": filters}))
			}
			// Another plugin of the same collection, for the (order, plugin) sort.
			second := map[string]int64{tr: 2, ia: 4}[c.name]
			late, gone, early, tie := mk(9, c.plugin, false), mk(1, c.plugin, true), mk(1, second, false), mk(1, c.plugin, false)
			if err := a.srv.SetGeneration(2); err != nil {
				t.Fatal(err)
			}

			rec := a.do(http.MethodGet, path(1, c.name, late), full, nil).want(t, 200).object(t)
			if _, has := rec["filters"]; has || num(rec, "id") != late || rec["created_at"] == nil {
				t.Errorf("retrieve %v", rec)
			}
			// Retrieve still answers a deleted config.
			a.do(http.MethodGet, path(1, c.name, gone), full, nil).want(t, 200)

			page := a.do(http.MethodGet, path(1, c.name), full, nil).want(t, 200).object(t)
			var got []int64
			for _, r := range results(t, page) {
				got = append(got, id(r))
				if _, has := r["filters"]; has {
					t.Errorf("list record with filters: %v", r)
				}
			}
			// By order, then plugin id; the deleted one is hidden and not counted.
			want := []int64{tie, early, late}
			if c.plugin > second {
				want = []int64{early, tie, late}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) || num(page, "count") != 3 {
				t.Errorf("list %v (count %v), want %v", got, page["count"], want)
			}

			// Update: filters sent are ignored, even invalid ones.
			upd := a.do(http.MethodPatch, path(1, c.name, late), full, map[string]any{"name": "renamed", "filters": "not an object"}).want(t, 200).object(t)
			if _, has := upd["filters"]; has || upd["name"] != "renamed" {
				t.Errorf("update %v", upd)
			}
			arr := a.do(http.MethodPatch, path(1, c.name, "rearrange"), full, map[string]any{"orders": map[string]any{fmt.Sprint(late): 0}}).want(t, 200).array(t)
			if r := as[map[string]any](t, arr[0]); id(r) != late || num(r, "order") != 0 {
				t.Errorf("rearrange %v", arr)
			} else if _, has := r["filters"]; has {
				t.Errorf("rearrange record with filters: %v", r)
			}
			a.do(http.MethodGet, path(1, c.name, late, "frontend"), full, nil).want(t, 200)
			a.do(http.MethodPost, path(1, c.name, late, "job"), full, jobBodies[c.name]).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
			a.do(http.MethodDelete, path(1, c.name, late), full, nil).want(t, 204)
			if r := a.do(http.MethodGet, path(1, c.name, late), full, nil).want(t, 200).object(t); r["enabled"] != false || r["deleted"] != false {
				t.Errorf("after DELETE %v", r)
			}

			// Back at generation 1 the stored filters are what they were.
			if err := a.srv.SetGeneration(1); err != nil {
				t.Fatal(err)
			}
			rec = a.do(http.MethodGet, path(1, c.name, late), full, nil).want(t, 200).object(t)
			if !jsonEqual(t, rec["filters"], `{"events": [{"type": "events", "id": "$pageview", "properties": []}]}`) {
				t.Errorf("filters after generation 2 updates: %v", rec["filters"])
			}
			if listIDs(t, a, c.name)[gone] {
				t.Errorf("generation 1 lists include the deleted config")
			}
		})
	}
}

// TestMigrate: migrate turns a config whose plugin's url has a migrator
// (SendGrid's) into the migrator's destination, as the hog function API
// answers it, and disables the config; every other plugin, the seeded
// ones included, gets 400; a config the migrator's function refuses
// (without the API key its template requires) changes nothing.
func TestMigrate(t *testing.T) {
	for _, coll := range []string{tr, ia} {
		t.Run(coll, func(t *testing.T) {
			a := newAPI(t, localapi.Options{Plugins: withMigrator()})
			mk := func(plugin int64, enabled bool, cfg string) int64 {
				return id(a.form(http.MethodPost, path(1, coll), full, map[string]string{
					"plugin": fmt.Sprint(plugin), "order": "3", "enabled": fmt.Sprint(enabled),
					"filters": `{"events": [{"type": "events", "id": "$pageview"}]}`, "config": cfg,
				}).want(t, 201).object(t))
			}
			settings := `{"sendgridApiKey": "s3cr3t", "customFields": "first_name,company=org"}`
			seeded := map[string]int64{tr: 1, ia: 3}[coll]
			on, off, none := mk(migrators[coll], true, settings), mk(migrators[coll], false, settings), mk(seeded, true, `{}`)
			keyless := mk(migrators[coll], true, `{"customFields": "city"}`)
			other := id(a.create(1, map[string]string{tr: ia, ia: tr}[coll], full, map[string]any{"plugin": map[string]int64{tr: 3, ia: 1}[coll], "order": 1}))
			// Not a route at generation 1.
			a.do(http.MethodPost, path(1, coll, on, "migrate"), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
			if err := a.srv.SetGeneration(2); err != nil {
				t.Fatal(err)
			}

			r := a.do(http.MethodPost, path(1, coll, on, "migrate"), full, nil).want(t, 200)
			if strings.Contains(string(r.body), "s3cr3t") {
				t.Errorf("the secret in the answer: %s", r.body)
			}
			hf := r.object(t)
			if got := keysOf(t, r.body); fmt.Sprint(got) != fmt.Sprint(hogFunctionFields) {
				t.Errorf("fields %v, want %v", got, hogFunctionFields)
			}
			tpl := as[map[string]any](t, hf["template"])
			if !uuidLike.MatchString(as[string](t, hf["id"])) || hf["type"] != "destination" || hf["name"] != "Sendgrid" ||
				hf["description"] != "Update marketing contacts in Sendgrid" || hf["enabled"] != true || tpl["id"] != "template-sendgrid" ||
				hf["execution_order"] != nil || hf["icon_url"] != "/static/services/sendgrid.png" || !isoMicros.MatchString(as[string](t, hf["created_at"])) {
				t.Errorf("hog function %v", hf)
			}
			// The migrator's inputs, compiled; the secret masked.
			wantInputs := `{"api_key": {"secret": true},
				"email": {"value": "{person.properties.email}", "bytecode": ["_H", 1, 32, "{person.properties.email}"], "order": 1},
				"properties": {"value": {"first_name": "{person.properties.first_name}"},
					"bytecode": {"first_name": ["_H", 1, 32, "{person.properties.first_name}"]}, "order": 2},
				"custom_fields": {"value": {"org": "{person.properties.company}"},
					"bytecode": {"org": ["_H", 1, 32, "{person.properties.company}"]}, "order": 3}}`
			if !jsonEqual(t, hf["inputs"], wantInputs) {
				t.Errorf("inputs %v", hf["inputs"])
			}
			filters := as[map[string]any](t, hf["filters"])
			if filters["source"] != "events" || filters["bytecode"] == nil ||
				!jsonEqual(t, filters["events"], `[{"id": "$identify", "name": "$identify", "type": "events", "order": 0}]`) {
				t.Errorf("filters %v, want the migrator's", hf["filters"])
			}
			// The config is disabled, not deleted.
			rec := a.do(http.MethodGet, path(1, coll, on), full, nil).want(t, 200).object(t)
			if rec["enabled"] != false || rec["deleted"] != false {
				t.Errorf("config after migrate %v", rec)
			}
			hfs := a.srv.HogFunctions()
			if len(hfs) != 1 || hfs[0].ID != hf["id"] || hfs[0].SourceConfigID == nil || *hfs[0].SourceConfigID != on ||
				hfs[0].TemplateID != "template-sendgrid" || !strings.Contains(string(hfs[0].Inputs), `"api_key":{"value":"s3cr3t"`) {
				t.Fatalf("hog functions %+v", hfs)
			}

			// A disabled config makes a disabled function; each call makes one.
			if hf := a.do(http.MethodPost, path(1, coll, off, "migrate"), full, nil).want(t, 200).object(t); hf["enabled"] != false {
				t.Errorf("migrate of a disabled config: %v", hf)
			}
			a.do(http.MethodPost, path(1, coll, on, "migrate"), full, nil).want(t, 200)
			if n := len(a.srv.HogFunctions()); n != 3 {
				t.Errorf("%d hog functions, want 3", n)
			}

			// Refusals change nothing.
			a.do(http.MethodPost, path(1, coll, none, "migrate"), full, nil).wantError(t, 400, "validation_error", "invalid_input", localapi.DetailNoMigration, "")
			a.do(http.MethodPost, path(1, coll, keyless, "migrate"), full, nil).wantError(t, 400, "validation_error", "invalid_input", "This field is required.", "inputs__api_key")
			for _, rid := range []int64{none, keyless} {
				if rec := a.do(http.MethodGet, path(1, coll, rid), full, nil).object(t); rec["enabled"] != true {
					t.Errorf("a refused migrate disabled the config: %v", rec)
				}
			}
			for _, rid := range []any{other, 987654, "abc"} {
				a.do(http.MethodPost, path(1, coll, rid, "migrate"), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
			}
			if n := len(a.srv.HogFunctions()); n != 3 {
				t.Errorf("%d hog functions after refusals, want 3", n)
			}
			// Counted whatever the answer, the generation 1 404 included.
			if c := a.srv.Counters(); c["migrate"] != 9 || c["migrate:"+coll] != 9 {
				t.Errorf("migrate counters %d, %d", c["migrate"], c["migrate:"+coll])
			}
		})
	}
}
