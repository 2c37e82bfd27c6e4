package localapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// operation is one of the API operations, ready to send.
type operation struct {
	name    string
	method  string
	path    func(project any, coll string, rec int64) string
	body    any
	success int
	scope   string // "" for the custom actions scoped keys may not call
	// served says which versions serve it (F serves none); 404 at the
	// others.
	served func(localapi.Version) bool
}

// Which versions serve an operation, as the notes' table says.
var (
	allGens   = func(localapi.Version) bool { return true }
	onlyGen1  = func(v localapi.Version) bool { return v <= localapi.VersionC } // job: B and C
	sinceGen2 = func(v localapi.Version) bool { return v >= localapi.VersionD } // migrate, activity: from D on
)

var operations = []operation{
	{"list", "GET", func(p any, c string, _ int64) string { return path(p, c) }, nil, 200, "plugin:read", allGens},
	{"create", "POST", func(p any, c string, _ int64) string { return path(p, c) }, nil, 201, "plugin:write", allGens},
	{"retrieve", "GET", func(p any, c string, r int64) string { return path(p, c, r) }, nil, 200, "plugin:read", allGens},
	{"update", "PATCH", func(p any, c string, r int64) string { return path(p, c, r) }, map[string]any{"order": 5}, 200, "plugin:write", allGens},
	{"delete", "DELETE", func(p any, c string, r int64) string { return path(p, c, r) }, nil, 204, "plugin:write", allGens},
	{"frontend", "GET", func(p any, c string, r int64) string { return path(p, c, r, "frontend") }, nil, 200, "", allGens},
	{"job", "POST", func(p any, c string, r int64) string { return path(p, c, r, "job") }, nil, 200, "", onlyGen1},
	{"rearrange", "PATCH", func(p any, c string, _ int64) string { return path(p, c, "rearrange") }, map[string]any{"orders": map[string]any{}}, 200, "", allGens},
	{"migrate", "POST", func(p any, c string, r int64) string { return path(p, c, r, "migrate") }, nil, 200, "", sinceGen2},
	{"activity", "GET", func(p any, c string, r int64) string { return path(p, c, r, "activity") }, nil, 200, "", sinceGen2},
}

// unsupported are methods no operation serves on each kind of path: a
// legacy key gets 405, a key with scopes 403 (as for the custom actions).
var unsupported = []operation{
	{"collection PUT", "PUT", func(p any, c string, _ int64) string { return path(p, c) }, map[string]any{}, 405, "", allGens},
	{"collection DELETE", "DELETE", func(p any, c string, _ int64) string { return path(p, c) }, nil, 405, "", allGens},
	{"detail POST", "POST", func(p any, c string, r int64) string { return path(p, c, r) }, map[string]any{}, 405, "", allGens},
	{"frontend POST", "POST", func(p any, c string, r int64) string { return path(p, c, r, "frontend") }, nil, 405, "", allGens},
	{"job GET", "GET", func(p any, c string, r int64) string { return path(p, c, r, "job") }, nil, 405, "", onlyGen1},
	{"rearrange GET", "GET", func(p any, c string, _ int64) string { return path(p, c, "rearrange") }, nil, 405, "", allGens},
	{"migrate GET", "GET", func(p any, c string, r int64) string { return path(p, c, r, "migrate") }, nil, 405, "", sinceGen2},
	{"activity POST", "POST", func(p any, c string, r int64) string { return path(p, c, r, "activity") }, nil, 405, "", sinceGen2},
}

// matrixKeys are the seeded keys and one of each other shape a key can
// have: write without read, a legacy key and a read key of another
// project only.
var matrixKeys = append(localapi.DefaultKeys(),
	localapi.APIKey{Key: "k_write_only", Scopes: []string{"plugin:write"}, Projects: []int64{1}},
	localapi.APIKey{Key: "k_legacy_two", Projects: []int64{2}},
	localapi.APIKey{Key: "k_read_two", Scopes: []string{"plugin:read"}, Projects: []int64{2}},
)

// TestAuthMatrixCoversEveryOperation: the matrix sends every operation the
// server knows (its counters name them), so that a new one cannot go
// untested.
func TestAuthMatrixCoversEveryOperation(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	known := map[string]bool{}
	for _, op := range append(append(operations[:len(operations):len(operations)], pluginOperations...), hogOperations...) {
		known[op.name] = true
	}
	notOps := map[string]bool{"other": true, "total": true, "throttled": true, "faulted": true,
		"fault_429": true, "fault_502": true, "fault_503": true, "fault_reset": true}
	for name := range a.srv.Counters() {
		if strings.Contains(name, ":") {
			continue // an operation's count in one collection
		}
		if !notOps[name] && !known[name] {
			t.Errorf("operation %q is not in the matrix", name)
		}
	}
}

// jobBodies are valid job requests for the plugins the matrix uses.
var jobBodies = map[string]any{
	tr: map[string]any{"job": map[string]any{"type": "Reprocess", "payload": map[string]any{"since": "2024-01-01"}}},
	ia: map[string]any{"job": map[string]any{"type": "Backfill", "payload": map[string]any{"days": 3}}},
}

// matrixPlugins are what the operations need in each collection: a
// public job while the version has job, else a migrator (withMigrator's
// catalog).
func matrixPlugins(v localapi.Version) map[string]int64 {
	if onlyGen1(v) {
		return map[string]int64{tr: 2, ia: 3}
	}
	return migrators
}

// modes are the services a server can behave as: each version, and B and
// F with today's mode on, which only says what generation 2 stands for.
var modes = []struct {
	v     localapi.Version
	today bool
}{
	{localapi.VersionB, false}, {localapi.VersionC, false}, {localapi.VersionD, false}, {localapi.VersionE, false},
	{localapi.VersionE2026, false}, {localapi.VersionF, false}, {localapi.VersionB, true}, {localapi.VersionF, true},
}

func modeName(v localapi.Version, today bool) string {
	if today {
		return fmt.Sprintf("version %v today", v)
	}
	return fmt.Sprint("version ", v)
}

// TestAuthMatrix sends every operation of both collections, and every
// method no operation serves, with every seeded key and one of each other
// shape (and none, and a bad one) to every kind of project, at every
// version and in today's mode, and checks the answer against the live
// rules. Records are made at version B, then the server switches.
func TestAuthMatrix(t *testing.T) {
	for _, m := range modes {
		t.Run(modeName(m.v, m.today), func(t *testing.T) { authMatrix(t, m.v, m.today) })
	}
}

// authMatrix checks one mode. Today's service (E2026) gives every key
// scopes, "*" to those that had none (PostHog PR #51237), refuses them the
// custom actions in new words, answers an unknown path "Endpoint not
// found." and a JSON create 400, making nothing.
func authMatrix(t *testing.T, v localapi.Version, todayFlag bool) {
	today := v == localapi.VersionE2026
	a := newAPI(t, localapi.Options{Keys: matrixKeys, Today: todayFlag, Generation: 1, Plugins: withMigrator()})
	type keyCase struct {
		key      string
		scopes   []string
		projects []int64
	}
	keys := []keyCase{{key: ""}, {key: "phx_not_a_key"}}
	for _, k := range matrixKeys {
		keys = append(keys, keyCase{k.Key, k.Scopes, k.Projects})
	}
	plugins := matrixPlugins(v)
	// One record per project and collection for the record operations.
	recs := map[string]map[int64]int64{}
	for _, coll := range []string{tr, ia} {
		recs[coll] = map[int64]int64{}
		for _, p := range []int64{1, 2} {
			recs[coll][p] = id(a.form(http.MethodPost, path(p, coll), full, map[string]string{"plugin": fmt.Sprint(plugins[coll]),
				"order": "1", "enabled": "true", "config": `{"sendgridApiKey": "k"}`}).want(t, 201).object(t))
		}
	}
	if err := a.srv.SetVersion(v); err != nil {
		t.Fatal(err)
	}
	served := func(op operation) bool { return v < localapi.VersionF && op.served(v) }
	for _, coll := range []string{tr, ia} {
		for _, k := range keys {
			for _, project := range []any{int64(1), int64(2), "@current", int64(999), "abc"} {
				for _, op := range append(operations[:len(operations):len(operations)], unsupported...) {
					name := fmt.Sprintf("%s/%s/%v/%s", coll, k.key, project, op.name)
					t.Run(name, func(t *testing.T) {
						body := op.body
						switch op.name {
						case "create":
							// From version E a create needs a plugin with a
							// template (the collection is not checked), and
							// stays disabled: 20 enabled transformations at most.
							body = map[string]any{"plugin": plugins[coll], "order": 1}
							if v >= localapi.VersionE {
								body = map[string]any{"plugin": 5, "order": 1, "enabled": false}
							}
						case "job":
							body = jobBodies[coll]
						}
						projID, known := project.(int64)
						if project == "@current" {
							// The key's first project, else the first one.
							projID, known = 1, true
							if len(k.projects) > 0 {
								projID = k.projects[0]
							}
						}
						if projID == 999 {
							known = false
						}
						r := a.do(op.method, op.path(project, coll, recs[coll][projID]), k.key, body)
						legacy := len(k.scopes) == 0
						allowsProject := len(k.projects) == 0 || contains(k.projects, projID)
						switch {
						case !served(op) && today:
							r.wantError(t, 404, "invalid_request", "not_found", localapi.DetailEndpointNotFound, "")
						case !served(op):
							// A route the version lacks: an unknown path.
							r.wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
						case k.key == "":
							r.wantError(t, 401, "authentication_error", "not_authenticated", "Authentication credentials were not provided.", "")
						case k.key == "phx_not_a_key":
							r.wantError(t, 401, "authentication_error", "authentication_failed", "Personal API key found in request Authorization header is invalid.", "")
						case !known:
							r.wantError(t, 404, "invalid_request", "not_found", "Project not found.", "")
						case today && op.scope == "":
							r.wantError(t, 403, "authentication_error", "permission_denied", localapi.DetailNoKeyAccessToday, "")
						case !legacy && op.scope == "":
							r.wantError(t, 403, "authentication_error", "permission_denied", localapi.DetailNoKeyAccess, "")
						case !allowsProject:
							r.wantError(t, 403, "authentication_error", "permission_denied",
								fmt.Sprintf("API key does not have access to the requested project: ID %d.", projID), "")
						case !legacy && !hasScope(k.scopes, op.scope):
							r.wantError(t, 403, "authentication_error", "permission_denied",
								fmt.Sprintf("API key missing required scope '%s'", op.scope), "")
						case today && op.name == "create":
							r.wantError(t, 400, "validation_error", "invalid_input", localapi.DetailCreationDisabled, "")
						default:
							r.want(t, op.success)
						}
					})
				}
			}
		}
	}
	if hfs := a.srv.HogFunctions(); today && len(hfs) != 0 {
		t.Errorf("today's service made hog functions of JSON creates: %+v", hfs)
	}
}

func contains(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func hasScope(scopes []string, want string) bool {
	for _, s := range scopes {
		if s == "*" || s == want || (want == "plugin:read" && s == "plugin:write") {
			return true
		}
	}
	return false
}

// TestErrorTable walks the rows of the notes' error table one by one.
func TestErrorTable(t *testing.T) {
	a := newAPI(t, localapi.Options{RateLimitPerMinute: 2})
	rec := a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
	rows := []struct {
		row                     string
		method, path, key       string
		body                    any
		status                  int
		typ, code, detail, attr string
	}{
		{"no credentials", "GET", path(1, tr), "", nil, 401, "authentication_error", "not_authenticated", "Authentication credentials were not provided.", ""},
		{"bad key", "GET", path(1, tr), "phx_bad", nil, 401, "authentication_error", "authentication_failed", "Personal API key found in request Authorization header is invalid.", ""},
		{"missing scope", "POST", path(1, tr), read, map[string]any{"plugin": 1, "order": 1}, 403, "authentication_error", "permission_denied", "API key missing required scope 'plugin:write'", ""},
		{"key not allowed for project", "GET", path(2, tr), write, nil, 403, "authentication_error", "permission_denied", "API key does not have access to the requested project: ID 2.", ""},
		{"unknown project", "GET", path(999, tr), full, nil, 404, "invalid_request", "not_found", "Project not found.", ""},
		{"non-integer project", "GET", path("abc", tr), full, nil, 404, "invalid_request", "not_found", "Project not found.", ""},
		{"unknown record", "GET", path(1, tr, 424242), full, nil, 404, "invalid_request", "not_found", "Not found.", ""},
		{"validation", "POST", path(1, tr), full, map[string]any{"plugin": 1}, 400, "validation_error", "required", "This field is required.", "order"},
		{"validation nested attr", "PATCH", path(1, tr, id(rec)), full, map[string]any{"filters": map[string]any{"events": []any{map[string]any{}}}}, 400, "validation_error", "{'type': ['required']}", "[ErrorDetail(string='This field is required.', code='required')]", "filters__events"},
	}
	for _, row := range rows {
		t.Run(row.row, func(t *testing.T) {
			a.srv.SetRateLimit(0)
			a.do(row.method, row.path, row.key, row.body).wantError(t, row.status, row.typ, row.code, row.detail, row.attr)
		})
	}
	t.Run("malformed JSON", func(t *testing.T) {
		r := a.do("POST", path(1, tr), full, `{"plugin":`).want(t, 400).object(t)
		if r["type"] != "validation_error" || r["code"] != "parse_error" || r["attr"] != nil {
			t.Errorf("envelope %v", r)
		}
	})
	t.Run("throttled", func(t *testing.T) {
		a.srv.SetRateLimit(2)
		a.do("GET", path(1, tr), read, nil).want(t, 200)
		a.do("GET", path(1, tr), read, nil).want(t, 200)
		r := a.do("GET", path(1, tr), read, nil)
		r.wantError(t, 429, "throttled_error", "throttled", "Request was throttled. Expected available in 60 seconds.", "")
		if r.header.Get("Retry-After") != "60" {
			t.Errorf("Retry-After %q, want 60", r.header.Get("Retry-After"))
		}
		// Limits are per key.
		a.do("GET", path(1, tr), full, nil).want(t, 200)
	})
}

func TestBearerAndQueryKey(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	req, _ := http.NewRequestWithContext(t.Context(), "GET", a.url+path(1, tr), nil)
	req.Header.Set("Authorization", "Basic dXNlcjpwYXNz")
	a.send(req, "").wantError(t, 401, "authentication_error", "not_authenticated", "Authentication credentials were not provided.", "")
	a.do("GET", path(1, tr)+"?personal_api_key="+read, "", nil).want(t, 200)
	a.do("GET", path(1, tr)+"?personal_api_key=nope", "", nil).wantError(t, 401, "authentication_error",
		"authentication_failed", "Personal API key found in request query string is invalid.", "")
}

func TestCustomKeysAndProjects(t *testing.T) {
	a := newAPI(t, localapi.Options{
		Projects: []int64{7, 8},
		Keys:     []localapi.APIKey{{Key: "k_any"}, {Key: "k_eight", Scopes: []string{"plugin:write"}, Projects: []int64{8}}},
	})
	rec := a.create("@current", tr, "k_any", map[string]any{"plugin": 1, "order": 1})
	if num(rec, "team_id") != 7 {
		t.Errorf("@current of a key without projects = %v, want the first project", rec["team_id"])
	}
	a.create(8, tr, "k_any", map[string]any{"plugin": 1, "order": 1})
	a.do("GET", path("@current", tr), "k_eight", nil).want(t, 200)
	a.do("GET", path(7, tr), "k_eight", nil).want(t, 403)
	a.do("GET", path(1, tr), "k_any", nil).want(t, 404)
}
