package localapi_test

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

var isoMicros = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$`)

func pluginByID(id int64) localapi.Plugin {
	for _, p := range localapi.DefaultPlugins() {
		if p.ID == id {
			return p
		}
	}
	panic(fmt.Sprint("no plugin ", id))
}

func TestCreateDefaultsAndShape(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, c := range collections {
		t.Run(c.name, func(t *testing.T) {
			rec := a.create(1, c.name, full, map[string]any{"plugin": c.plugin, "order": 7})
			want := []string{"id", "plugin", "enabled", "order", "config", "error", "team_id", "plugin_info",
				"delivery_rate_24h", "created_at", "updated_at", "name", "description", "deleted", "filters"}
			for _, k := range want {
				if _, ok := rec[k]; !ok {
					t.Errorf("field %s missing", k)
				}
			}
			if len(rec) != len(want) {
				t.Errorf("fields %d, want %d: %v", len(rec), len(want), rec)
			}
			p := pluginByID(c.plugin)
			checks := map[string]any{
				"plugin": float64(c.plugin), "enabled": false, "order": float64(7), "error": nil, "team_id": float64(1),
				"delivery_rate_24h": nil, "deleted": false, "filters": nil,
				// name and description fall back to the plugin's.
				"name": *p.Name, "description": *p.Description,
			}
			for k, v := range checks {
				if rec[k] != v {
					t.Errorf("%s = %#v, want %#v", k, rec[k], v)
				}
			}
			if cfg, ok := rec["config"].(map[string]any); !ok || len(cfg) != 0 {
				t.Errorf("config = %#v, want {}", rec["config"])
			}
			info, ok := rec["plugin_info"].(map[string]any)
			if !ok || info["id"] != float64(c.plugin) || info["name"] != *p.Name {
				t.Errorf("plugin_info = %#v", rec["plugin_info"])
			}
			for _, k := range []string{"config_schema", "capabilities", "public_jobs", "plugin_type", "url", "tag"} {
				if _, ok := info[k]; !ok {
					t.Errorf("plugin_info.%s missing", k)
				}
			}
			for _, k := range []string{"created_at", "updated_at"} {
				if s, _ := rec[k].(string); !isoMicros.MatchString(s) {
					t.Errorf("%s = %q, want ISO 8601 UTC with microseconds", k, s)
				}
			}
			// Retrieve answers the same record.
			got := a.do(http.MethodGet, path(1, c.name, id(rec)), full, nil).want(t, 200).object(t)
			if fmt.Sprint(got) != fmt.Sprint(rec) {
				t.Errorf("retrieve = %v\nwant %v", got, rec)
			}
		})
	}
}

func TestCreateSetsEveryWritableField(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.create(1, tr, full, map[string]any{
		"plugin": 2, "order": -3, "enabled": true, "name": "  mine  ", "description": "about",
		"deleted": false, "filters": map[string]any{"filter_test_accounts": true},
		// Read-only fields are ignored.
		"config": map[string]any{"properties": "x"}, "id": 999, "team_id": 2, "error": "boom",
	})
	if rec["enabled"] != true || num(rec, "order") != -3 || rec["name"] != "mine" || rec["description"] != "about" {
		t.Errorf("record %v", rec)
	}
	if id(rec) == 999 || num(rec, "team_id") != 1 || rec["error"] != nil || len(as[map[string]any](t, rec["config"])) != 0 {
		t.Errorf("read-only fields were written: %v", rec)
	}
	if f := as[map[string]any](t, rec["filters"]); f["filter_test_accounts"] != true {
		t.Errorf("filters %v", f)
	}
}

func TestIDsShareOneSequence(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	var ids []int64
	for _, c := range []struct {
		coll   string
		plugin int64
		proj   int
	}{{tr, 1, 1}, {ia, 3, 1}, {tr, 2, 2}, {ia, 4, 2}} {
		ids = append(ids, id(a.create(c.proj, c.coll, full, map[string]any{"plugin": c.plugin, "order": 1})))
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] != ids[i-1]+1 {
			t.Fatalf("ids %v are not one sequence", ids)
		}
	}
}

func TestRetrieveNotFound(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, c := range collections {
		t.Run(c.name, func(t *testing.T) {
			other := a.create(1, c.name, full, map[string]any{"plugin": c.otherPlugin, "order": 1})
			inP2 := a.create(2, c.name, full, map[string]any{"plugin": c.plugin, "order": 1})
			for _, p := range []string{
				path(1, c.name, 999999),
				path(1, c.name, "abc"),
				path(1, c.name, id(other)), // plugin of the other kind
				path(1, c.name, id(inP2)),  // another project's record
			} {
				a.do(http.MethodGet, p, full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
			}
		})
	}
}

func TestCreateThroughWrongCollection(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, c := range collections {
		t.Run(c.name, func(t *testing.T) {
			rec := a.create(1, c.name, full, map[string]any{"plugin": c.otherPlugin, "order": 1})
			a.do(http.MethodGet, path(1, c.name, id(rec)), full, nil).want(t, 404)
			a.do(http.MethodPatch, path(1, c.name, id(rec)), full, map[string]any{"order": 2}).want(t, 404)
			a.do(http.MethodGet, path(1, c.name, id(rec), "frontend"), full, nil).want(t, 404)
			a.do(http.MethodPost, path(1, c.name, id(rec), "job"), full, map[string]any{"job": map[string]any{"type": "x"}}).want(t, 404)
			page := a.do(http.MethodGet, path(1, c.name), full, nil).want(t, 200).object(t)
			for _, r := range results(t, page) {
				if id(r) == id(rec) {
					t.Errorf("list shows a record of the other kind")
				}
			}
			// The other collection shows it.
			otherColl := tr
			if c.name == tr {
				otherColl = ia
			}
			a.do(http.MethodGet, path(1, otherColl, id(rec)), full, nil).want(t, 200)
		})
	}
}

func TestUpdate(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, c := range collections {
		t.Run(c.name, func(t *testing.T) {
			rec := a.create(1, c.name, full, map[string]any{"plugin": c.plugin, "order": 1, "name": "first"})
			p := path(1, c.name, id(rec))
			got := a.do(http.MethodPatch, p, full, map[string]any{
				"plugin":  c.otherPlugin, // silently ignored
				"order":   "12",          // numeric strings are integers
				"enabled": "true", "description": "changed",
			}).want(t, 200).object(t)
			if num(got, "plugin") != c.plugin || num(got, "order") != 12 || got["enabled"] != true ||
				got["description"] != "changed" || got["name"] != "first" {
				t.Errorf("after PATCH: %v", got)
			}
			if got["plugin_info"] == nil {
				t.Errorf("plugin_info is null after update")
			}
			if as[string](t, got["updated_at"]) < as[string](t, rec["updated_at"]) || got["created_at"] != rec["created_at"] {
				t.Errorf("timestamps: created %v→%v updated %v→%v", rec["created_at"], got["created_at"], rec["updated_at"], got["updated_at"])
			}
			// Empty or null name falls back to the plugin's name.
			for _, v := range []any{"", nil} {
				got = a.do(http.MethodPatch, p, full, map[string]any{"name": v}).want(t, 200).object(t)
				if got["name"] != *pluginByID(c.plugin).Name {
					t.Errorf("name after %#v = %v", v, got["name"])
				}
			}
			// An empty body changes nothing.
			before := a.do(http.MethodGet, p, full, nil).want(t, 200).object(t)
			after := a.do(http.MethodPatch, p, full, "").want(t, 200).object(t)
			if before["order"] != after["order"] || before["enabled"] != after["enabled"] {
				t.Errorf("empty PATCH changed the record")
			}
			// PUT is a full update: plugin and order are required.
			a.do(http.MethodPut, p, full, map[string]any{"order": 3}).wantError(t, 400, "validation_error", "required", "This field is required.", "plugin")
			got = a.do(http.MethodPut, p, full, map[string]any{"plugin": c.plugin, "order": 3}).want(t, 200).object(t)
			if num(got, "order") != 3 {
				t.Errorf("PUT order = %v", got["order"])
			}
			// A PATCH with an invalid body on a missing record is 404.
			a.do(http.MethodPatch, path(1, c.name, 987654), full, "{bad").want(t, 404)
		})
	}
}

func TestDeletedForcesDisabled(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, c := range collections {
		t.Run(c.name, func(t *testing.T) {
			rec := a.create(1, c.name, full, map[string]any{"plugin": c.plugin, "order": 1, "enabled": true})
			p := path(1, c.name, id(rec))
			got := a.do(http.MethodPatch, p, full, map[string]any{"deleted": true, "enabled": true}).want(t, 200).object(t)
			if got["deleted"] != true || got["enabled"] != false {
				t.Errorf("after deleted=true: deleted %v enabled %v", got["deleted"], got["enabled"])
			}
			// Retrieve still answers a deleted record; lists leave it out.
			got = a.do(http.MethodGet, p, full, nil).want(t, 200).object(t)
			if got["deleted"] != true {
				t.Errorf("retrieve deleted = %v", got["deleted"])
			}
			if listIDs(t, a, c.name)[id(rec)] {
				t.Errorf("the list includes the deleted record")
			}
		})
	}
}

// listIDs lists the IDs of project 1's configs in coll, on one page.
func listIDs(t *testing.T, a *api, coll string) map[int64]bool {
	t.Helper()
	page := a.do(http.MethodGet, path(1, coll)+"?limit=100000", full, nil).want(t, 200).object(t)
	ids := map[int64]bool{}
	for _, r := range results(t, page) {
		ids[id(r)] = true
	}
	return ids
}

func TestDeleteOnlyDisables(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, c := range collections {
		t.Run(c.name, func(t *testing.T) {
			rec := a.create(1, c.name, full, map[string]any{"plugin": c.plugin, "order": 1, "enabled": true})
			r := a.do(http.MethodDelete, path(1, c.name, id(rec)), full, nil).want(t, 204)
			if len(r.body) != 0 {
				t.Errorf("204 with body %q", r.body)
			}
			got := a.do(http.MethodGet, path(1, c.name, id(rec)), full, nil).want(t, 200).object(t)
			if got["enabled"] != false || got["deleted"] != false {
				t.Errorf("after DELETE: enabled %v deleted %v", got["enabled"], got["deleted"])
			}
			// DELETE ignores the collection: a record of the other kind is found.
			other := a.create(1, c.name, full, map[string]any{"plugin": c.otherPlugin, "order": 1, "enabled": true})
			a.do(http.MethodDelete, path(1, c.name, id(other)), full, nil).want(t, 204)
			// Unknown ids (and other projects' ids) are a 500, as live.
			inP2 := a.create(2, c.name, full, map[string]any{"plugin": c.plugin, "order": 1})
			for _, p := range []string{path(1, c.name, 999999), path(1, c.name, id(inP2)), path(1, c.name, "abc")} {
				a.do(http.MethodDelete, p, full, nil).wantError(t, 500, "server_error", "error", "A server error occurred.", "")
			}
		})
	}
}

func TestListPagination(t *testing.T) {
	for _, c := range collections {
		t.Run(c.name, func(t *testing.T) {
			a := newAPI(t, localapi.Options{})
			for i := range 5 {
				a.create(2, c.name, full, map[string]any{"plugin": c.plugin, "order": 5 - i})
			}
			a.create(2, c.name, full, map[string]any{"plugin": c.otherPlugin, "order": 0}) // not in this collection
			base := a.url + path(2, c.name)

			page := a.do(http.MethodGet, path(2, c.name)+"?limit=2", full, nil).want(t, 200).object(t)
			if num(page, "count") != 5 || len(results(t, page)) != 2 {
				t.Fatalf("page %v", page)
			}
			if page["next"] != base+"?limit=2&offset=2" || page["previous"] != nil {
				t.Errorf("first page next %v previous %v", page["next"], page["previous"])
			}
			// Ordered by order: the last created has the lowest.
			first := results(t, page)[0]
			if num(first, "order") != 1 || first["plugin_info"] != nil {
				t.Errorf("first result %v", first)
			}

			page = a.do(http.MethodGet, path(2, c.name)+"?offset=2&limit=2", full, nil).want(t, 200).object(t)
			if page["next"] != base+"?limit=2&offset=4" || page["previous"] != base+"?limit=2" {
				t.Errorf("middle page next %v previous %v", page["next"], page["previous"])
			}
			page = a.do(http.MethodGet, path(2, c.name)+"?offset=4&limit=2", full, nil).want(t, 200).object(t)
			if page["next"] != nil || page["previous"] != base+"?limit=2&offset=2" || len(results(t, page)) != 1 {
				t.Errorf("last page %v", page)
			}
			// Other query parameters are kept.
			page = a.do(http.MethodGet, path(2, c.name)+"?limit=2&x=y", full, nil).want(t, 200).object(t)
			if page["next"] != base+"?limit=2&offset=2&x=y" {
				t.Errorf("next %v", page["next"])
			}
			// Invalid, zero or negative limits fall back to 100; no maximum.
			for _, q := range []string{"", "?limit=0", "?limit=abc", "?limit=-1", "?limit=1000000", "?offset=junk"} {
				page = a.do(http.MethodGet, path(2, c.name)+q, full, nil).want(t, 200).object(t)
				if len(results(t, page)) != 5 || page["next"] != nil || page["previous"] != nil {
					t.Errorf("%s: %v", q, page)
				}
			}
			page = a.do(http.MethodGet, path(2, c.name)+"?offset=50", full, nil).want(t, 200).object(t)
			if len(results(t, page)) != 0 || num(page, "count") != 5 {
				t.Errorf("offset past the end: %v", page)
			}
			// An empty collection.
			page = a.do(http.MethodGet, path(1, c.name), read, nil).want(t, 200).object(t)
			if num(page, "count") != 0 || page["results"] == nil {
				t.Errorf("empty page %v", page)
			}
		})
	}
}

// TestListsHideDeleted: at every generation, lists (and their count) leave
// deleted configs out, whether created deleted or deleted by PATCH, and are
// ordered by order, then plugin id, then id.
func TestListsHideDeleted(t *testing.T) {
	for _, gen := range []int{localapi.Generation1, localapi.Generation2} {
		for _, c := range collections {
			t.Run(fmt.Sprintf("generation %d/%s", gen, c.name), func(t *testing.T) {
				a := newAPI(t, localapi.Options{})
				// Another plugin of the same collection, for the (order, plugin) sort.
				second := map[string]int64{tr: 2, ia: 4}[c.name]
				low, high := min(c.plugin, second), max(c.plugin, second)
				mk := func(order int, plugin int64) int64 {
					return id(a.create(1, c.name, full, map[string]any{"plugin": plugin, "order": order}))
				}
				lastHigh, firstLow, secondLow, lateLow, firstHigh := mk(2, high), mk(2, low), mk(2, low), mk(3, low), mk(1, high)
				createdDeleted := id(a.create(1, c.name, full, map[string]any{"plugin": low, "order": 0, "deleted": true}))
				patched := mk(0, high)
				a.do(http.MethodPatch, path(1, c.name, patched), full, map[string]any{"deleted": true}).want(t, 200)
				if err := a.srv.SetGeneration(gen); err != nil {
					t.Fatal(err)
				}

				page := a.do(http.MethodGet, path(1, c.name), full, nil).want(t, 200).object(t)
				var got []int64
				for _, r := range results(t, page) {
					got = append(got, id(r))
				}
				want := []int64{firstHigh, firstLow, secondLow, lastHigh, lateLow}
				if !slices.Equal(got, want) || num(page, "count") != int64(len(want)) {
					t.Errorf("list %v (count %v), want %v without the deleted %d and %d", got, page["count"], want, createdDeleted, patched)
				}
				// A page past the active configs is empty: offsets count active ones only.
				page = a.do(http.MethodGet, path(1, c.name)+"?limit=2&offset=4", full, nil).want(t, 200).object(t)
				if rs := results(t, page); len(rs) != 1 || id(rs[0]) != lateLow || page["next"] != nil {
					t.Errorf("last page %v, want only %d", page, lateLow)
				}
			})
		}
	}
}

func TestListDefaultPageIs100(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for i := range 105 {
		a.create(1, tr, full, map[string]any{"plugin": 1, "order": i})
	}
	page := a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200).object(t)
	if len(results(t, page)) != 100 || num(page, "count") != 105 {
		t.Fatalf("results %d count %v", len(results(t, page)), page["count"])
	}
	if page["next"] != a.url+path(1, tr)+"?limit=100&offset=100" {
		t.Errorf("next %v", page["next"])
	}
}

func TestListLinksFollowForwardedHeaders(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for range 3 {
		a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, a.url+path(1, tr)+"?limit=1&offset=1", nil)
	req.Header.Set("X-Forwarded-Proto", "https")
	req.Header.Set("X-Forwarded-Host", "pipelines.example.com")
	page := a.send(req, full).want(t, 200).object(t)
	if page["next"] != "https://pipelines.example.com"+path(1, tr)+"?limit=1&offset=2" ||
		page["previous"] != "https://pipelines.example.com"+path(1, tr)+"?limit=1" {
		t.Errorf("next %v previous %v", page["next"], page["previous"])
	}
}

func TestTrailingSlashOptional(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1, "enabled": true})
	base := strings.TrimSuffix(path(1, tr), "/")
	rid := fmt.Sprint(id(rec))
	cases := []struct {
		method, path string
		body         any
		status       int
	}{
		{"GET", base, nil, 200},
		{"POST", base, map[string]any{"plugin": 1, "order": 1}, 201},
		{"GET", base + "/" + rid, nil, 200},
		{"PATCH", base + "/" + rid, map[string]any{"order": 2}, 200},
		{"GET", base + "/" + rid + "/frontend", nil, 200},
		{"POST", base + "/" + rid + "/job", map[string]any{"job": map[string]any{"type": "Reprocess", "payload": map[string]any{"since": "2024-01-01"}}}, 200},
		{"PATCH", base + "/rearrange", map[string]any{"orders": map[string]any{}}, 200},
		{"DELETE", base + "/" + rid, nil, 204},
	}
	for _, c := range cases {
		for _, p := range []string{c.path, c.path + "/"} {
			if c.method == "DELETE" && p == c.path+"/" {
				continue
			}
			if r := a.do(c.method, p, full, c.body); r.status != c.status {
				t.Errorf("%s %s: %d, want %d: %s", c.method, p, r.status, c.status, r.body)
			}
		}
	}
	a.do("GET", path(1, tr, rid, "nope"), full, nil).want(t, 404)
	a.do("GET", "/api/projects/1/plugin_configs/", full, nil).want(t, 404)
}

func TestCurrentProject(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, key := range []string{full, write, star} {
		rec := a.create("@current", tr, key, map[string]any{"plugin": 1, "order": 1})
		if num(rec, "team_id") != 1 {
			t.Errorf("%s: @current made team %v, want 1", key, rec["team_id"])
		}
		a.do(http.MethodGet, path("@current", tr, id(rec)), key, nil).want(t, 200)
		a.do(http.MethodGet, path(1, tr, id(rec)), key, nil).want(t, 200)
	}
}

func TestMethodNotAllowed(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1})
	for _, c := range []struct{ method, path string }{
		{"GET", path(1, tr, "rearrange")},
		{"POST", path(1, tr, "rearrange")},
		{"DELETE", path(1, tr)},
		{"POST", path(1, tr, id(rec))},
		{"POST", path(1, tr, id(rec), "frontend")},
		{"GET", path(1, tr, id(rec), "job")},
	} {
		a.do(c.method, c.path, full, nil).wantError(t, 405, "invalid_request", "method_not_allowed",
			fmt.Sprintf("Method %q not allowed.", c.method), "")
		// A key with scopes is refused first, as the live permission check runs before the method's.
		a.do(c.method, c.path, star, nil).wantError(t, 403, "authentication_error", "permission_denied",
			"This action does not support Personal API Key access", "")
	}
}

func TestValidationErrors(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	long := func(n int) string { return strings.Repeat("é", n) }
	cases := []struct {
		name               string
		body               any
		code, detail, attr string
		status             int
		typ                string
	}{
		{"missing plugin", map[string]any{"order": 1}, "required", "This field is required.", "plugin", 400, ""},
		{"missing order", map[string]any{"plugin": 1}, "required", "This field is required.", "order", 400, ""},
		{"missing both: plugin first", map[string]any{}, "required", "This field is required.", "plugin", 400, ""},
		{"empty body", "", "required", "This field is required.", "plugin", 400, ""},
		{"unknown plugin", map[string]any{"plugin": 99, "order": 1}, "does_not_exist", `Invalid pk "99" - object does not exist.`, "plugin", 400, ""},
		{"plugin null", map[string]any{"plugin": nil, "order": 1}, "null", "This field may not be null.", "plugin", 400, ""},
		{"plugin not a pk", map[string]any{"plugin": "abc", "order": 1}, "incorrect_type", "Incorrect type. Expected pk value, received str.", "plugin", 400, ""},
		{"plugin bool", map[string]any{"plugin": true, "order": 1}, "incorrect_type", "Incorrect type. Expected pk value, received bool.", "plugin", 400, ""},
		{"order not integer", map[string]any{"plugin": 1, "order": "first"}, "invalid_input", "A valid integer is required.", "order", 400, ""},
		{"order fractional", map[string]any{"plugin": 1, "order": 1.5}, "invalid_input", "A valid integer is required.", "order", 400, ""},
		{"order null", map[string]any{"plugin": 1, "order": nil}, "null", "This field may not be null.", "order", 400, ""},
		{"order too big", map[string]any{"plugin": 1, "order": 2147483648}, "max_value", "Ensure this value is less than or equal to 2147483647.", "order", 400, ""},
		{"order too small", map[string]any{"plugin": 1, "order": -2147483649}, "min_value", "Ensure this value is greater than or equal to -2147483648.", "order", 400, ""},
		{"enabled not bool", map[string]any{"plugin": 1, "order": 1, "enabled": "maybe"}, "invalid_input", "Must be a valid boolean.", "enabled", 400, ""},
		{"deleted null", map[string]any{"plugin": 1, "order": 1, "deleted": nil}, "null", "This field may not be null.", "deleted", 400, ""},
		{"name too long", map[string]any{"plugin": 1, "order": 1, "name": long(401)}, "max_length", "Ensure this field has no more than 400 characters.", "name", 400, ""},
		{"name not a string", map[string]any{"plugin": 1, "order": 1, "name": []any{"x"}}, "invalid_input", "Not a valid string.", "name", 400, ""},
		{"description too long", map[string]any{"plugin": 1, "order": 1, "description": long(1001)}, "max_length", "Ensure this field has no more than 1000 characters.", "description", 400, ""},
		{"filters not an object", map[string]any{"plugin": 1, "order": 1, "filters": []any{}}, "invalid_input", "Invalid data. Expected a dictionary, but got list.", "filters__non_field_errors", 400, ""},
		{"malformed JSON", `{"plugin": 1,`, "parse_error", "", "", 400, ""},
		{"body null", `null`, "null", "This field may not be null.", "", 400, ""},
		{"body not an object", `[1, 2]`, "invalid_input", "Invalid data. Expected a dictionary, but got list.", "", 400, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := a.do(http.MethodPost, path(1, tr), full, c.body)
			if c.code == "parse_error" {
				r.want(t, 400)
				env := r.object(t)
				if env["type"] != "validation_error" || env["code"] != "parse_error" || env["attr"] != nil ||
					!strings.HasPrefix(as[string](t, env["detail"]), "JSON parse error") {
					t.Errorf("envelope %v", env)
				}
				return
			}
			r.wantError(t, c.status, "validation_error", c.code, c.detail, c.attr)
		})
	}
	// Boundaries that pass.
	rec := a.create(1, tr, full, map[string]any{"plugin": "1", "order": 2147483647, "name": long(400), "description": long(1000)})
	a.create(1, tr, full, map[string]any{"plugin": 1, "order": -2147483648, "enabled": 1})
	// The same checks apply to PATCH.
	a.do(http.MethodPatch, path(1, tr, id(rec)), full, map[string]any{"order": "x"}).
		wantError(t, 400, "validation_error", "invalid_input", "A valid integer is required.", "order")
	a.do(http.MethodPatch, path(1, tr, id(rec)), full, map[string]any{"plugin": 99}).
		wantError(t, 400, "validation_error", "does_not_exist", `Invalid pk "99" - object does not exist.`, "plugin")
	a.do(http.MethodPatch, path(1, tr, id(rec)), full, `{"order":`).want(t, 400)
}

func TestUnsupportedMediaType(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, a.url+path(1, tr), strings.NewReader("plugin=1"))
	req.Header.Set("Content-Type", "text/plain")
	a.send(req, full).wantError(t, 415, "invalid_request", "unsupported_media_type", `Unsupported media type "text/plain" in request.`, "")
}

func TestUnknownPathIsEnvelope404(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, p := range []string{"/", "/api/", "/api/projects/1/", "/api/projects/1/unknown/", "/api/projects/1/pipeline_transformation_configs/1/2/3/"} {
		a.do(http.MethodGet, p, full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	}
}

func TestOrderIsStable(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	var want []int64
	for range 4 {
		want = append(want, id(a.create(1, tr, full, map[string]any{"plugin": 1, "order": 0})))
	}
	var got []int64
	for i := range 4 {
		page := a.do(http.MethodGet, fmt.Sprintf("%s?limit=1&offset=%d", path(1, tr), i), full, nil).want(t, 200).object(t)
		got = append(got, id(results(t, page)[0]))
	}
	if !slices.Equal(got, want) {
		t.Errorf("paging equal orders: %v, want %v", got, want)
	}
}
