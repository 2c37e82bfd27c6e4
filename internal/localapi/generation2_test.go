package localapi_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// migrations are the collections with a seeded plugin that has a migrator
// and one that has none.
var migrations = []struct {
	name            string
	migrator, none  int64
	hogType         string
	templateID      string
	secret, setting string // a secret and a plain config key of migrator
}{
	{tr, 1, 2, "transformation", "plugin-posthog-plugin-geoip", "api_key", "locale"},
	{ia, 3, 4, "source_webhook", "plugin-s3-import-plugin", "aws_secret_access_key", "bucket"},
}

var uuidLike = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// newAPIAt is a local API at generation gen.
func newAPIAt(t *testing.T, gen int) *api {
	t.Helper()
	return newAPI(t, localapi.Options{Generation: gen})
}

func TestGeneration2CreateMakesHogFunction(t *testing.T) {
	for _, m := range migrations {
		t.Run(m.name, func(t *testing.T) {
			a := newAPIAt(t, 2)
			start := time.Now().Add(-time.Second)
			rec := a.form(http.MethodPost, path(1, m.name), write, map[string]string{
				"plugin": fmt.Sprint(m.migrator), "order": "7", "enabled": "true", "name": " mine ",
				"filters": `{"events": [{"type": "nonsense"}]}`, // no such field: ignored
				"config":  fmt.Sprintf(`{%q: "s3cr3t", %q: "x"}`, m.secret, m.setting),
			}).want(t, 201).object(t)

			// The unsaved config: no id, no timestamps, no filters field.
			want := []string{"id", "plugin", "enabled", "order", "config", "error", "team_id", "plugin_info",
				"delivery_rate_24h", "created_at", "updated_at", "name", "description", "deleted"}
			if len(rec) != len(want) {
				t.Errorf("fields %v, want %v", rec, want)
			}
			checks := map[string]any{"id": nil, "created_at": nil, "updated_at": nil, "plugin": float64(m.migrator),
				"enabled": true, "order": float64(7), "name": "mine", "description": *pluginByID(m.migrator).Description,
				"team_id": float64(1), "deleted": false, "error": nil, "delivery_rate_24h": nil}
			for k, v := range checks {
				if got, ok := rec[k]; !ok || got != v {
					t.Errorf("%s = %#v, want %#v", k, got, v)
				}
			}
			if cfg := config(t, rec); cfg[m.secret] != mask || cfg[m.setting] != "x" {
				t.Errorf("config %v", cfg)
			}
			if info, ok := rec["plugin_info"].(map[string]any); !ok || info["id"] != float64(m.migrator) {
				t.Errorf("plugin_info %#v", rec["plugin_info"])
			}

			// Exactly one POST and one hog function, and no config.
			hfs := a.srv.HogFunctions()
			if len(hfs) != 1 {
				t.Fatalf("hog functions %+v, want 1", hfs)
			}
			hf := hfs[0]
			if !uuidLike.MatchString(hf.ID) || hf.Project != 1 || hf.Plugin != m.migrator || hf.Name != "mine" ||
				!hf.Enabled || hf.SourceConfigID != nil || hf.Type != m.hogType || hf.TemplateID != m.templateID ||
				hf.ExecutionOrder == nil || *hf.ExecutionOrder != 7 || hf.CreatedAt.Before(start) || string(hf.Filters) != "{}" {
				t.Errorf("hog function %+v", hf)
			}
			wantInputs := fmt.Sprintf(`{%q: {"value": "s3cr3t"}, %q: {"value": "x"}}`, m.secret, m.setting)
			if !jsonEqual(t, hf.Inputs, wantInputs) {
				t.Errorf("inputs %s, want %s (unmasked, in process)", hf.Inputs, wantInputs)
			}
			c := a.srv.Counters()
			if c["create"] != 1 || c["create:"+m.name] != 1 {
				t.Errorf("counters create %d, create:%s %d", c["create"], m.name, c["create:"+m.name])
			}
			if n := num(a.do(http.MethodGet, path(1, m.name), full, nil).want(t, 200).object(t), "count"); n != 0 {
				t.Errorf("a generation 2 create stored a config: count %d", n)
			}

			// Sending it again makes a second one.
			a.create(1, m.name, full, map[string]any{"plugin": m.migrator, "order": 1})
			if hfs := a.srv.HogFunctions(); len(hfs) != 2 || hfs[1].Name != *pluginByID(m.migrator).Name || hfs[1].Enabled || hfs[0].ID == hfs[1].ID {
				t.Errorf("second create: %+v", hfs)
			}
			if err := a.srv.ResetHogFunctions(); err != nil || len(a.srv.HogFunctions()) != 0 {
				t.Errorf("ResetHogFunctions: %v, left %d", err, len(a.srv.HogFunctions()))
			}
		})
	}
}

func TestGeneration2CreateRefusals(t *testing.T) {
	a := newAPIAt(t, 2)
	for _, m := range migrations {
		cases := []struct {
			name               string
			body               any
			code, detail, attr string
		}{
			{"no migrator", map[string]any{"plugin": m.none, "order": 1}, "invalid_input", localapi.DetailCreationDisabled, ""},
			{"no migrator, filters ignored", map[string]any{"plugin": m.none, "order": 1, "filters": "x"}, "invalid_input", localapi.DetailCreationDisabled, ""},
			// The body is validated first, as at generation 1.
			{"no order", map[string]any{"plugin": m.migrator}, "required", "This field is required.", "order"},
			{"unknown plugin", map[string]any{"plugin": 99, "order": 1}, "does_not_exist", `Invalid pk "99" - object does not exist.`, "plugin"},
			{"long name", map[string]any{"plugin": m.none, "order": 1, "name": strings.Repeat("n", 401)}, "max_length", "Ensure this field has no more than 400 characters.", "name"},
		}
		for _, c := range cases {
			t.Run(m.name+"/"+c.name, func(t *testing.T) {
				a.do(http.MethodPost, path(1, m.name), full, c.body).wantError(t, 400, "validation_error", c.code, c.detail, c.attr)
			})
		}
	}
	if hfs := a.srv.HogFunctions(); len(hfs) != 0 {
		t.Errorf("a refused create made hog functions: %+v", hfs)
	}
	if c := a.srv.Counters(); c["create"] != int64(2*5) || c["create:"+tr] != 5 || c["create:"+ia] != 5 {
		t.Errorf("refused creates are counted too: %v", c)
	}
}

// TestHogFunctionTypes: a plugin in no collection makes a destination, and
// one without a URL a template named by its ID.
func TestHogFunctionTypes(t *testing.T) {
	plugins := append(localapi.DefaultPlugins(), localapi.Plugin{ID: 99, Name: text("Webhook"), HasMigrator: true,
		Capabilities: localapi.Capabilities{Methods: []string{"onEvent"}}})
	a := newAPI(t, localapi.Options{Generation: 2, Plugins: plugins})
	// The collection is not checked on create, as at generation 1.
	a.create(1, tr, full, map[string]any{"plugin": 99, "order": 1})
	if hfs := a.srv.HogFunctions(); len(hfs) != 1 || hfs[0].Type != "destination" || hfs[0].TemplateID != "plugin-99" {
		t.Errorf("hog functions %+v", hfs)
	}
}

// TestHogFunctionTemplates: a template is named by the plugin's url as the
// notes' "What a migration makes" says.
func TestHogFunctionTemplates(t *testing.T) {
	urls := map[string]string{
		"https://github.com/PostHog/posthog-plugin-geoip": "plugin-posthog-plugin-geoip",
		"inline://semver-flattener":                       "plugin-semver-flattener-plugin",
		"inline://user-agent":                             "plugin-user-agent-plugin",
		"inline://event-sequence-timer":                   "plugin-event-sequence-timer",
	}
	for url, want := range urls {
		p := localapi.Plugin{ID: 1, URL: url, HasMigrator: true, Capabilities: localapi.Capabilities{Methods: []string{"processEvent"}}}
		a := newAPI(t, localapi.Options{Generation: 2, Plugins: []localapi.Plugin{p}})
		a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
		if hfs := a.srv.HogFunctions(); len(hfs) != 1 || hfs[0].TemplateID != want {
			t.Errorf("%s: hog functions %+v, want template %s", url, hfs, want)
		}
	}
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

func TestMigrate(t *testing.T) {
	for _, m := range migrations {
		t.Run(m.name, func(t *testing.T) {
			a := newAPI(t, localapi.Options{})
			mk := func(plugin int64, enabled bool) int64 {
				return id(a.form(http.MethodPost, path(1, m.name), full, map[string]string{
					"plugin": fmt.Sprint(plugin), "order": "3", "enabled": fmt.Sprint(enabled),
					"filters": `{"events": [{"type": "events", "id": "$pageview"}]}`,
					"config":  fmt.Sprintf(`{%q: "s3cr3t", %q: "x"}`, m.secret, m.setting),
				}).want(t, 201).object(t))
			}
			on, off, none := mk(m.migrator, true), mk(m.migrator, false), mk(m.none, true)
			other := id(a.create(1, map[string]string{tr: ia, ia: tr}[m.name], full, map[string]any{"plugin": map[string]int64{tr: 3, ia: 1}[m.name], "order": 1}))
			// Not a route at generation 1.
			a.do(http.MethodPost, path(1, m.name, on, "migrate"), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
			if err := a.srv.SetGeneration(2); err != nil {
				t.Fatal(err)
			}

			hf := a.do(http.MethodPost, path(1, m.name, on, "migrate"), full, nil).want(t, 200).object(t)
			for _, k := range []string{"id", "type", "name", "description", "created_at", "created_by", "updated_at", "enabled",
				"deleted", "hog", "inputs_schema", "inputs", "filters", "masking", "icon_url", "template_id", "execution_order"} {
				if _, ok := hf[k]; !ok {
					t.Errorf("hog function has no %s: %v", k, hf)
				}
			}
			p := pluginByID(m.migrator)
			if !uuidLike.MatchString(as[string](t, hf["id"])) || hf["type"] != m.hogType || hf["name"] != *p.Name ||
				hf["enabled"] != true || hf["deleted"] != false || hf["template_id"] != m.templateID ||
				num(hf, "execution_order") != 3 || !isoMicros.MatchString(as[string](t, hf["created_at"])) {
				t.Errorf("hog function %v", hf)
			}
			// Secret inputs are masked as PostHog masks encrypted inputs.
			if !jsonEqual(t, hf["inputs"], fmt.Sprintf(`{%q: {"secret": true}, %q: {"value": "x"}}`, m.secret, m.setting)) {
				t.Errorf("inputs %v", hf["inputs"])
			}
			if !jsonEqual(t, hf["filters"], `{"events": [{"type": "events", "id": "$pageview", "properties": []}]}`) {
				t.Errorf("filters %v", hf["filters"])
			}
			if schema := as[[]any](t, hf["inputs_schema"]); len(schema) != len(p.ConfigSchema.Fields) {
				t.Errorf("inputs_schema %v", schema)
			}
			// The config is disabled, not deleted.
			rec := a.do(http.MethodGet, path(1, m.name, on), full, nil).want(t, 200).object(t)
			if rec["enabled"] != false || rec["deleted"] != false {
				t.Errorf("config after migrate %v", rec)
			}
			hfs := a.srv.HogFunctions()
			if len(hfs) != 1 || hfs[0].ID != hf["id"] || hfs[0].SourceConfigID == nil || *hfs[0].SourceConfigID != on {
				t.Fatalf("hog functions %+v", hfs)
			}

			// A disabled config makes a disabled function; each call makes one.
			if hf := a.do(http.MethodPost, path(1, m.name, off, "migrate"), full, nil).want(t, 200).object(t); hf["enabled"] != false {
				t.Errorf("migrate of a disabled config: %v", hf)
			}
			a.do(http.MethodPost, path(1, m.name, on, "migrate"), full, nil).want(t, 200)
			if n := len(a.srv.HogFunctions()); n != 3 {
				t.Errorf("%d hog functions, want 3", n)
			}

			// Refusals change nothing.
			a.do(http.MethodPost, path(1, m.name, none, "migrate"), full, nil).wantError(t, 400, "validation_error", "invalid_input", localapi.DetailNoMigration, "")
			if rec := a.do(http.MethodGet, path(1, m.name, none), full, nil).object(t); rec["enabled"] != true {
				t.Errorf("a refused migrate disabled the config: %v", rec)
			}
			for _, rid := range []any{other, 987654, "abc"} {
				a.do(http.MethodPost, path(1, m.name, rid, "migrate"), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
			}
			if n := len(a.srv.HogFunctions()); n != 3 {
				t.Errorf("%d hog functions after refusals, want 3", n)
			}
			// Counted whatever the answer, the generation 1 404 included.
			if c := a.srv.Counters(); c["migrate"] != 8 || c["migrate:"+m.name] != 8 {
				t.Errorf("migrate counters %d, %d", c["migrate"], c["migrate:"+m.name])
			}
		})
	}
}
