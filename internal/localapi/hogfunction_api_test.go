package localapi_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// The templates the tests create from: plainTemplate's inputs are
// optional (overrideUserAgentDetails a string, defaulting to "false", and
// two choices); secretTemplate's are required, salt secret and
// privateFields with a default.
const (
	plainTemplate  = "plugin-user-agent-plugin"
	secretTemplate = "plugin-posthog-anonymization" //nolint:gosec // G101: a template id, not a credential
)

// hogFunctionFields are HogFunctionSerializer's fields in its order, less
// the write-only ones and those the local API leaves out.
var hogFunctionFields = []string{"id", "type", "name", "description", "created_at", "created_by", "updated_at", "enabled", "hog",
	"bytecode", "transpiled", "inputs_schema", "inputs", "filters", "masking", "mappings", "icon_url", "template", "status", "execution_order"}

// keysOf lists the members of the JSON object body in their order.
func keysOf(t *testing.T, body []byte) []string {
	t.Helper()
	var fields []string
	dec := json.NewDecoder(strings.NewReader(string(body)))
	_, _ = dec.Token()
	for dec.More() {
		tok, _ := dec.Token()
		fields = append(fields, as[string](t, tok))
		var skip json.RawMessage
		_ = dec.Decode(&skip)
	}
	return fields
}

// hogPath builds /api/<prefix>/<project>/hog_functions/[<id>/]; prefix is
// projects or environments.
func hogPath(prefix string, project any, id ...string) string {
	p := fmt.Sprintf("/api/%s/%v/hog_functions/", prefix, project)
	for _, s := range id {
		p += s + "/"
	}
	return p
}

// hogOperations are the hog function API's operations, and methods it does
// not serve, for the auth matrices; the path's second argument is the hog
// function's id.
var hogOperations = []operation{
	{"hog_function_list", "GET", func(p any, _ string, _ int64) string { return hogPath("projects", p) }, nil, 200, "hog_function:read", allGens},
	{"hog_function_create", "POST", func(p any, _ string, _ int64) string { return hogPath("environments", p) },
		map[string]any{"template_id": plainTemplate, "type": "transformation", "inputs": map[string]any{"debugMode": map[string]any{"value": "true"}}},
		201, "hog_function:write", allGens},
	{"hog_function_retrieve", "GET", func(p any, id string, _ int64) string { return hogPath("environments", p, id) }, nil, 200, "hog_function:read", allGens},
	{"hog_function_update", "PATCH", func(p any, id string, _ int64) string { return hogPath("projects", p, id) },
		map[string]any{"execution_order": 3}, 200, "hog_function:write", allGens},
	{"hog_function_delete", "DELETE", func(p any, id string, _ int64) string { return hogPath("projects", p, id) }, nil, 405, "hog_function:write", allGens},
	{"hog collection PUT", "PUT", func(p any, _ string, _ int64) string { return hogPath("projects", p) }, map[string]any{}, 405, "", allGens},
	{"hog detail POST", "POST", func(p any, id string, _ int64) string { return hogPath("projects", p, id) }, map[string]any{}, 405, "", allGens},
	{"hog_function_template_list", "GET", func(p any, _ string, _ int64) string { return templatePath(p) }, nil, 200, "hog_function:read", allGens},
	{"hog_function_template_retrieve", "GET", func(p any, _ string, _ int64) string { return templatePath(p, "plugin-taxonomy-plugin") },
		nil, 200, "hog_function:read", allGens},
	{"template POST", "POST", func(p any, _ string, _ int64) string { return templatePath(p) }, map[string]any{}, 405, "", allGens},
	{"template PATCH", "PATCH", func(p any, _ string, _ int64) string { return templatePath(p, "template-sendgrid") }, map[string]any{}, 405, "", allGens},
}

// hasHogScope: write grants read, * everything.
func hasHogScope(scopes []string, want string) bool {
	return slices.Contains(scopes, "*") || slices.Contains(scopes, want) ||
		(want == "hog_function:read" && slices.Contains(scopes, "hog_function:write"))
}

// createHog makes a hog function in project with key and returns the
// answer; it fails the test unless 201.
func (a *api) createHog(project any, key string, body any) map[string]any {
	a.t.Helper()
	return a.do(http.MethodPost, hogPath("projects", project), key, body).want(a.t, http.StatusCreated).object(a.t)
}

// storedHog returns the hog function id as the store holds it.
func storedHog(t *testing.T, srv *localapi.Server, id string) localapi.HogFunction {
	t.Helper()
	for _, hf := range srv.HogFunctions() {
		if hf.ID == id {
			return hf
		}
	}
	t.Fatalf("no hog function %s in the store", id)
	return localapi.HogFunction{}
}

// TestHogFunctionAuthMatrix sends every hog function operation, and the
// methods the routes do not serve, with every kind of key to every kind of
// project, at every generation (the plugin API's removal leaves the hog
// function API alone): scopes hog_function:read and :write, write granting
// read; DELETE is PostHog's 405 without a body once the key may write.
func TestHogFunctionAuthMatrix(t *testing.T) {
	keys := append(matrixKeys[:len(matrixKeys):len(matrixKeys)],
		localapi.APIKey{Key: "k_hog_read", Scopes: []string{"hog_function:read"}, Projects: []int64{1, 2}},
		localapi.APIKey{Key: "k_hog_write", Scopes: []string{"hog_function:write"}, Projects: []int64{1}, LimitedToProjects: true},
	)
	a := newAPI(t, localapi.Options{Keys: keys})
	ids := map[int64]string{}
	for _, p := range []int64{1, 2} {
		ids[p] = as[string](t, a.createHog(p, full, map[string]any{"template_id": plainTemplate})["id"])
	}
	cases := append([]localapi.APIKey{{Key: ""}, {Key: "phx_not_a_key"}}, keys...)
	for _, gen := range []int{1, 2, 3} {
		if err := a.srv.SetGeneration(gen); err != nil {
			t.Fatal(err)
		}
		for _, k := range cases {
			for _, project := range []any{int64(1), int64(2), "@current", int64(999), "abc"} {
				for _, op := range hogOperations {
					t.Run(fmt.Sprintf("%d/%s/%v/%s", gen, k.Key, project, op.name), func(t *testing.T) {
						projID, known := project.(int64)
						if project == "@current" {
							projID, known = 1, true
							if len(k.Projects) > 0 {
								projID = k.Projects[0]
							}
						}
						known = known && projID != 999
						id, ok := ids[projID]
						if !ok {
							id = "01890000-0000-7000-8000-000000000999"
						}
						r := a.do(op.method, op.path(project, id, 0), k.Key, op.body)
						scoped := len(k.Scopes) > 0
						allowsProject := len(k.Projects) == 0 || slices.Contains(k.Projects, projID)
						switch {
						case k.Key == "":
							r.wantError(t, 401, "authentication_error", "not_authenticated", "Authentication credentials were not provided.", "")
						case k.Key == "phx_not_a_key":
							r.wantError(t, 401, "authentication_error", "authentication_failed", "Personal API key found in request Authorization header is invalid.", "")
						case !known:
							r.wantError(t, 404, "invalid_request", "not_found", "Project not found.", "")
						case scoped && op.scope == "":
							r.wantError(t, 403, "authentication_error", "permission_denied", "This action does not support Personal API Key access", "")
						case !allowsProject:
							r.wantError(t, 403, "authentication_error", "permission_denied",
								fmt.Sprintf("API key does not have access to the requested project: ID %d.", projID), "")
						case scoped && !hasHogScope(k.Scopes, op.scope):
							r.wantError(t, 403, "authentication_error", "permission_denied", fmt.Sprintf("API key missing required scope '%s'", op.scope), "")
						case op.success == 405 && op.scope == "":
							r.wantError(t, 405, "invalid_request", "method_not_allowed", fmt.Sprintf("Method %q not allowed.", op.method), "")
						case op.success == 405:
							if r.want(t, 405); len(r.body) != 0 {
								t.Errorf("DELETE answered %q, want no body", r.body)
							}
						default:
							r.want(t, op.success)
						}
					})
				}
			}
		}
	}
}

// TestSeededKeysAndHogFunctions: KeyOrg, the scoped key of the way off the
// plugin API, may manage hog functions and configs alike; KeyWrite, with
// plugin scopes only, may not touch hog functions.
func TestSeededKeysAndHogFunctions(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	hf := a.createHog(1, localapi.KeyOrg, map[string]any{"template_id": plainTemplate})
	a.do(http.MethodGet, hogPath("projects", 1, as[string](t, hf["id"])), localapi.KeyOrg, nil).want(t, 200)
	a.create(1, tr, localapi.KeyOrg, map[string]any{"plugin": 1, "order": 1})
	a.do(http.MethodGet, hogPath("projects", 1), write, nil).wantError(t, 403, "authentication_error", "permission_denied",
		"API key missing required scope 'hog_function:read'", "")
}

// TestHogFunctionCreateFromTemplate: a create from a template takes its
// code, inputs_schema, icon, name and description; the answer has
// HogFunctionSerializer's fields in order, the secret input masked, the
// inputs compiled, PostHog's default filters with their bytecode, the
// whole template; the store keeps the inputs PostHog's validation and
// save made (the schema's keys, in its order, each with its order) and the
// secret.
func TestHogFunctionCreateFromTemplate(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	r := a.do(http.MethodPost, strings.TrimSuffix(hogPath("environments", "@current"), "/"), localapi.KeyOrg, map[string]any{
		"template_id": secretTemplate, "type": "transformation", "enabled": true, "execution_order": 4,
		"inputs": map[string]any{
			"salt":    map[string]any{"value": "s3cr3t"},
			"unknown": map[string]any{"value": "dropped"},
		},
	}).want(t, 201)
	if fields := keysOf(t, r.body); !slices.Equal(fields, hogFunctionFields) {
		t.Errorf("fields %v, want %v", fields, hogFunctionFields)
	}
	if strings.Contains(string(r.body), "s3cr3t") {
		t.Errorf("the secret in the answer: %s", r.body)
	}
	hf := r.object(t)
	checks := map[string]any{"type": "transformation", "name": "PostHog Anonymization", "enabled": true,
		"execution_order": float64(4), "icon_url": "https://raw.githubusercontent.com/posthog/posthog-anonymization/main/logo.png",
		"hog": "return event", "bytecode": nil, "masking": nil}
	for k, v := range checks {
		if hf[k] != v {
			t.Errorf("%s = %#v, want %#v", k, hf[k], v)
		}
	}
	// The required input left out takes its default.
	if !jsonEqual(t, hf["inputs"], `{"salt": {"secret": true},
		"privateFields": {"value": "distinct_id,name,userid", "bytecode": ["_H", 1, 32, "distinct_id,name,userid"], "order": 1}}`) {
		t.Errorf("inputs %v", hf["inputs"])
	}
	if !jsonEqual(t, hf["filters"], `{"source": "events", "bytecode": ["_H", 1, 29]}`) {
		t.Errorf("filters %v, want PostHog's default filters", hf["filters"])
	}
	schema := as[[]any](t, hf["inputs_schema"])
	if len(schema) != 2 || as[map[string]any](t, schema[0])["key"] != "salt" || as[map[string]any](t, schema[0])["secret"] != true {
		t.Errorf("inputs_schema %v", schema)
	}
	tpl := as[map[string]any](t, hf["template"])
	if got := keysOf(t, []byte(mustJSON(t, tpl))); len(got) != 14 || tpl["id"] != secretTemplate || tpl["type"] != "transformation" ||
		tpl["status"] != "deprecated" || tpl["code"] != "return event" || tpl["code_language"] != "javascript" {
		t.Errorf("template %v", tpl)
	}
	stored := storedHog(t, a.srv, as[string](t, hf["id"]))
	if stored.Project != 1 || stored.Plugin != 0 || stored.TemplateID != secretTemplate || stored.SourceConfigID != nil || stored.Deleted ||
		!jsonEqual(t, stored.Inputs, `{"salt": {"value": "s3cr3t", "bytecode": ["_H", 1, 32, "s3cr3t"], "order": 0},
			"privateFields": {"value": "distinct_id,name,userid", "bytecode": ["_H", 1, 32, "distinct_id,name,userid"], "order": 1}}`) {
		t.Errorf("stored %+v, inputs %s", stored, stored.Inputs)
	}
	// The debug route masks the secret too.
	b := newAPI(t, localapi.Options{DebugRoutes: true})
	b.createHog(1, full, map[string]any{"template_id": secretTemplate, "inputs": map[string]any{"salt": map[string]any{"value": "x"}}})
	if body := string(b.do(http.MethodGet, "/_localapi/hog-functions", "", nil).want(t, 200).body); strings.Contains(body, `"x"`) {
		t.Errorf("the debug route shows a secret: %s", body)
	}
}

// TestHogFunctionInputsAsSaved: the inputs the answer shows are every key
// of the schema: one left out is null, a secret one left out is not
// shown; text, dictionaries and JSON are compiled, choices and numbers
// not, nor a value templated with liquid or an input whose schema turns
// templating off.
func TestHogFunctionInputsAsSaved(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	hf := a.createHog(1, full, map[string]any{"hog": "return event", "inputs_schema": []any{
		map[string]any{"key": "text", "type": "string"},
		map[string]any{"key": "dict", "type": "dictionary"},
		map[string]any{"key": "choice", "type": "choice"},
		map[string]any{"key": "liquid", "type": "string"},
		map[string]any{"key": "plain", "type": "string", "templating": false},
		map[string]any{"key": "empty", "type": "string"},
		map[string]any{"key": "missing", "type": "json"},
		map[string]any{"key": "secret", "type": "string", "secret": true},
	}, "inputs": map[string]any{
		"text": map[string]any{"value": "hi {event.event}"}, "dict": map[string]any{"value": map[string]any{"a": "b", "n": 1}},
		"choice": map[string]any{"value": "x"}, "liquid": map[string]any{"value": "{{ x }}", "templating": "liquid"},
		"plain": map[string]any{"value": "p"}, "empty": map[string]any{"value": ""},
	}})
	want := `{"text": {"value": "hi {event.event}", "bytecode": ["_H", 1, 32, "hi {event.event}"], "order": 0},
		"dict": {"value": {"a": "b", "n": 1}, "bytecode": {"a": ["_H", 1, 32, "b"], "n": 1}, "order": 1},
		"choice": {"value": "x", "order": 2},
		"liquid": {"value": "{{ x }}", "templating": "liquid", "order": 3},
		"plain": {"value": "p", "order": 4},
		"empty": {"value": "", "order": 5},
		"missing": null}`
	if !jsonEqual(t, hf["inputs"], want) {
		t.Errorf("inputs %v\nwant %s", hf["inputs"], want)
	}
	if got := keysOf(t, []byte(mustJSON(t, hf["inputs"]))); len(got) != 7 {
		t.Errorf("inputs keys %v", got)
	}
}

// TestHogFunctionCreateDefaults: a destination unless the type is sent
// (whatever the template's), disabled unless enabled is sent, the name and
// description sent win over the template's; a transformation without an
// execution_order goes after the project's others; a function of its own
// code needs its code.
func TestHogFunctionCreateDefaults(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	hf := a.createHog(1, full, map[string]any{"template_id": plainTemplate, "name": " Mine ", "description": "d", "icon_url": ""})
	if hf["type"] != "destination" || hf["enabled"] != false || hf["name"] != "Mine" || hf["description"] != "d" || hf["execution_order"] != nil ||
		hf["icon_url"] != "https://raw.githubusercontent.com/posthog/user-agent-plugin/main/logo.png" {
		t.Errorf("defaults %v", hf)
	}
	first := a.createHog(1, full, map[string]any{"template_id": plainTemplate, "type": "transformation", "execution_order": 7})
	second := a.createHog(1, full, map[string]any{"template_id": plainTemplate, "type": "transformation"})
	other := a.createHog(2, full, map[string]any{"template_id": plainTemplate, "type": "transformation"})
	if first["execution_order"] != float64(7) || second["execution_order"] != float64(8) || other["execution_order"] != float64(1) {
		t.Errorf("orders %v, %v, %v", first["execution_order"], second["execution_order"], other["execution_order"])
	}
	own := a.createHog(1, full, map[string]any{"hog": "return event", "icon_url": "https://example.com/i.png", "inputs_schema": []any{
		map[string]any{"key": "url", "type": "string", "required": true}, map[string]any{"key": "token", "type": "string", "secret": true}},
		"inputs": map[string]any{"url": map[string]any{"value": "https://example.com"}, "token": map[string]any{"value": "t"}}})
	if own["hog"] != "return event" || own["template"] != nil || own["icon_url"] != "https://example.com/i.png" ||
		!jsonEqual(t, own["inputs"], `{"url": {"value": "https://example.com", "bytecode": ["_H", 1, 32, "https://example.com"], "order": 0}, "token": {"secret": true}}`) {
		t.Errorf("own code %v", own)
	}
}

// TestHogFunctionUpdate: PATCH changes what it sends; inputs replace the
// inputs, a secret left out or sent as the mask keeps its value; without
// inputs the inputs stay; the type cannot change; template_id is ignored.
func TestHogFunctionUpdate(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	hf := a.createHog(1, full, map[string]any{"template_id": secretTemplate, "type": "transformation", "execution_order": 1,
		"inputs": map[string]any{"salt": map[string]any{"value": "s3cr3t"}, "privateFields": map[string]any{"value": "email"}}})
	id := as[string](t, hf["id"])
	p := hogPath("projects", 1, id)
	got := a.do(http.MethodPatch, p, localapi.KeyOrg, map[string]any{"execution_order": 5, "enabled": true, "template_id": plainTemplate,
		"inputs": map[string]any{"privateFields": map[string]any{"value": "name"}}}).want(t, 200).object(t)
	if got["execution_order"] != float64(5) || got["enabled"] != true || got["updated_at"] == hf["updated_at"] ||
		as[map[string]any](t, got["template"])["id"] != secretTemplate {
		t.Errorf("update %v", got)
	}
	salt := `"salt": {"value": "s3cr3t", "bytecode": ["_H", 1, 32, "s3cr3t"], "order": 0}`
	if s := storedHog(t, a.srv, id); !jsonEqual(t, s.Inputs, `{`+salt+`, "privateFields": {"value": "name", "bytecode": ["_H", 1, 32, "name"], "order": 1}}`) {
		t.Errorf("inputs %s: the secret left out must stay", s.Inputs)
	}
	for _, mask := range []any{map[string]any{"secret": true}, map[string]any{"secret": true, "value": "********"}} {
		a.do(http.MethodPatch, p, full, map[string]any{"inputs": map[string]any{"salt": mask, "privateFields": map[string]any{"value": "x"}}}).want(t, 200)
		if s := storedHog(t, a.srv, id); !strings.Contains(string(s.Inputs), `"value":"s3cr3t"`) {
			t.Errorf("inputs %s: the mask %v keeps the secret", s.Inputs, mask)
		}
	}
	a.do(http.MethodPatch, p+"?x=1", full, map[string]any{"name": "renamed"}).want(t, 200)
	if s := storedHog(t, a.srv, id); s.Name != "renamed" || !strings.Contains(string(s.Inputs), `"privateFields":{"value":"x"`) {
		t.Errorf("after a rename %+v", s)
	}
	a.do(http.MethodPatch, p, full, map[string]any{"type": "destination"}).wantError(t, 400, "validation_error", "invalid_input",
		"Cannot modify the type of an existing function", "type")
	a.do(http.MethodPut, strings.TrimSuffix(p, "/"), full, map[string]any{"description": "put"}).want(t, 200)
	if got := a.do(http.MethodGet, p, full, nil).want(t, 200).object(t); got["description"] != "put" {
		t.Errorf("after PUT %v", got)
	}
}

// TestHogFunctionDelete: DELETE is refused (405, no body: PostHog's
// ForbidDestroyModel); PATCH {"deleted": true} hides the function from
// retrieve, update and the list, and keeps it in the store; PATCH
// {"deleted": false} brings it back, a transformation after the others.
func TestHogFunctionDelete(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	hf := a.createHog(1, full, map[string]any{"template_id": plainTemplate, "type": "transformation", "execution_order": 1})
	a.createHog(1, full, map[string]any{"template_id": plainTemplate, "type": "transformation", "execution_order": 6})
	id := as[string](t, hf["id"])
	p := hogPath("projects", 1, id)
	if r := a.do(http.MethodDelete, p, localapi.KeyOrg, nil).want(t, 405); len(r.body) != 0 {
		t.Errorf("DELETE answered %q", r.body)
	}
	a.do(http.MethodPatch, p, localapi.KeyOrg, map[string]any{"deleted": true}).want(t, 200)
	if !storedHog(t, a.srv, id).Deleted {
		t.Error("not deleted in the store")
	}
	a.do(http.MethodGet, p, full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	a.do(http.MethodPatch, p, full, map[string]any{"deleted": true}).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	if page := a.do(http.MethodGet, hogPath("projects", 1), full, nil).want(t, 200).object(t); num(page, "count") != 1 {
		t.Errorf("the list shows the deleted function: %v", page)
	}
	back := a.do(http.MethodPatch, p, full, map[string]any{"deleted": false}).want(t, 200).object(t)
	if back["execution_order"] != float64(7) || storedHog(t, a.srv, id).Deleted {
		t.Errorf("undeleted %v", back)
	}
}

// TestHogFunctionList: the project's functions that are not deleted, by
// execution_order (none last), narrowed by type, enabled and id, in pages,
// in the minimal serializer's fields (the template included, by which a
// client finds a template's functions), or all of them with full=true.
func TestHogFunctionList(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	mk := func(body map[string]any) string {
		body["template_id"] = plainTemplate
		return as[string](t, a.createHog(1, full, body)["id"])
	}
	dest := mk(map[string]any{"enabled": true})
	late := mk(map[string]any{"type": "transformation", "execution_order": 9, "enabled": true})
	early := mk(map[string]any{"type": "transformation", "execution_order": 2})
	a.createHog(2, full, map[string]any{"template_id": plainTemplate})
	list := func(query string) []map[string]any {
		return results(t, a.do(http.MethodGet, hogPath("projects", 1)+query, localapi.KeyOrg, nil).want(t, 200).object(t))
	}
	ids := func(query string) []string {
		var out []string
		for _, r := range list(query) {
			out = append(out, as[string](t, r["id"]))
		}
		return out
	}
	if got := ids(""); !slices.Equal(got, []string{early, late, dest}) {
		t.Errorf("list %v, want %v", got, []string{early, late, dest})
	}
	if got := ids("?type=transformation"); !slices.Equal(got, []string{early, late}) {
		t.Errorf("transformations %v", got)
	}
	if got := ids("?type=destination,site_app&enabled=true"); !slices.Equal(got, []string{dest}) {
		t.Errorf("enabled destinations %v", got)
	}
	if got := ids("?enabled=false"); !slices.Equal(got, []string{early}) {
		t.Errorf("disabled %v", got)
	}
	if got := ids("?id=" + strings.ToUpper(late) + "&template_id=ignored"); !slices.Equal(got, []string{late}) {
		t.Errorf("by id %v", got)
	}
	a.do(http.MethodGet, hogPath("projects", 1)+"?id=nope", full, nil).wantError(t, 400, "validation_error", "invalid", "Enter a valid UUID.", "id")
	page := a.do(http.MethodGet, hogPath("projects", 1)+"?limit=2", full, nil).want(t, 200).object(t)
	if num(page, "count") != 3 || page["next"] == nil || len(results(t, page)) != 2 {
		t.Errorf("page %v", page)
	}
	entry := results(t, page)[0]
	if _, ok := entry["inputs"]; ok || as[map[string]any](t, entry["template"])["id"] != plainTemplate {
		t.Errorf("a list entry %v: no inputs, the template", entry)
	}
	if full := list("?full=true"); len(full) != 3 || full[0]["inputs"] == nil {
		t.Errorf("full=true %v", full)
	}
}

// TestHogFunctionValidation: the serializer's refusals, in its words.
func TestHogFunctionValidation(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	semver := "plugin-semver-flattener-plugin" // its properties input is required, its default ""
	rows := []struct {
		name               string
		body               any
		code, detail, attr string
	}{
		{"unknown template", map[string]any{"template_id": "plugin-nope"}, "invalid_input", "No template found for id 'plugin-nope'", "template_id"},
		{"a template of no plugin", map[string]any{"template_id": "plugin-s3-import-plugin"}, "invalid_input",
			"No template found for id 'plugin-s3-import-plugin'", "template_id"},
		{"no code", map[string]any{"name": "x"}, "invalid_input", "Required.", "hog"},
		{"bad type", map[string]any{"template_id": plainTemplate, "type": "webhook"}, "invalid_choice", `"webhook" is not a valid choice.`, "type"},
		{"warehouse webhook", map[string]any{"template_id": plainTemplate, "type": "warehouse_source_webhook"}, "invalid_input",
			"Cannot create or modify warehouse source webhook functions via this API.", "type"},
		{"required input", map[string]any{"template_id": semver}, "invalid_input", "This field is required.", "inputs__properties"},
		{"required secret", map[string]any{"template_id": secretTemplate}, "invalid_input", "This field is required.", "inputs__salt"},
		{"masked secret never set", map[string]any{"template_id": secretTemplate, "inputs": map[string]any{"salt": map[string]any{"secret": true}}},
			"invalid_input", "No value is saved for this secret input. Enter the value again.", "inputs__salt"},
		{"input not an object", map[string]any{"template_id": plainTemplate, "inputs": map[string]any{"debugMode": "true"}},
			"invalid_input", "Invalid data. Expected a dictionary, but got str.", "inputs__debugMode__non_field_errors"},
		{"input of the wrong type", map[string]any{"template_id": plainTemplate, "inputs": map[string]any{"overrideUserAgentDetails": map[string]any{"value": 5}}},
			"invalid_input", "Value must be a string.", "inputs__overrideUserAgentDetails"},
		{"inputs not an object", map[string]any{"template_id": plainTemplate, "inputs": []any{1}},
			"not_a_dict", `Expected a dictionary of items but got type "list".`, "inputs"},
		{"order too large", map[string]any{"template_id": plainTemplate, "execution_order": 40000},
			"max_value", "Ensure this value is less than or equal to 32767.", "execution_order"},
		{"order negative", map[string]any{"template_id": plainTemplate, "execution_order": -1},
			"min_value", "Ensure this value is greater than or equal to 0.", "execution_order"},
		{"filters source", map[string]any{"template_id": plainTemplate, "filters": map[string]any{"source": "logs"}},
			"invalid_choice", `"logs" is not a valid choice.`, "filters__source"},
		{"filters events", map[string]any{"template_id": plainTemplate, "filters": map[string]any{"events": map[string]any{}}},
			"not_a_list", `Expected a list of items but got type "dict".`, "filters__events"},
		{"enabled", map[string]any{"template_id": plainTemplate, "enabled": "maybe"}, "invalid_input", "Must be a valid boolean.", "enabled"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			a.do(http.MethodPost, hogPath("projects", 1), full, row.body).wantError(t, 400, "validation_error", row.code, row.detail, row.attr)
		})
	}
	if n := len(a.srv.HogFunctions()); n != 0 {
		t.Errorf("refused creates stored %d hog functions", n)
	}
	a.do(http.MethodGet, hogPath("projects", 1, "not-a-uuid"), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	a.do(http.MethodPatch, hogPath("projects", 1, "01890000-0000-7000-8000-000000000001"), full, map[string]any{}).
		wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
}

// TestHogFunctionFilters: the fields of the filters serializer are kept,
// in its order, source "events" added on a create; what the source cannot
// use is dropped; the bytecode PostHog compiles is added last, a sent one
// replaced; an update that leaves filters out compiles the stored ones
// again.
func TestHogFunctionFilters(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	hf := a.createHog(1, full, map[string]any{"template_id": plainTemplate, "filters": map[string]any{
		"filter_test_accounts": true, "events": []any{map[string]any{"id": "$pageview", "type": "events"}},
		"data_warehouse": []any{map[string]any{}}, "nonsense": 1, "bytecode": "sent"}})
	id := as[string](t, hf["id"])
	events := `{"source":"events","events":[{"id":"$pageview","type":"events"}],"filter_test_accounts":true}`
	wantEvents := `{"source":"events","events":[{"id":"$pageview","type":"events"}],"filter_test_accounts":true,"bytecode":["_H",1,32,` +
		strconv.Quote(events) + `]}`
	if s := storedHog(t, a.srv, id); string(s.Filters) != wantEvents {
		t.Errorf("filters %s\nwant %s", s.Filters, wantEvents)
	}
	p := hogPath("projects", 1, id)
	a.do(http.MethodPatch, p, full, map[string]any{"name": "n"}).want(t, 200)
	if s := storedHog(t, a.srv, id); string(s.Filters) != wantEvents {
		t.Errorf("filters after an update without them %s", s.Filters)
	}
	a.do(http.MethodPatch, p, full, map[string]any{"filters": map[string]any{"source": "person-updates", "events": []any{}, "properties": []any{}}}).want(t, 200)
	if s := storedHog(t, a.srv, id); string(s.Filters) != `{"source":"person-updates","properties":[],"bytecode":["_H",1,29]}` {
		t.Errorf("filters %s", s.Filters)
	}
	// A TypeScript type gets no bytecode.
	site := a.createHog(1, full, map[string]any{"hog": "export function onLoad() {}", "type": "site_app"})
	if !jsonEqual(t, site["filters"], `{"source": "events"}`) {
		t.Errorf("a site app's filters %v", site["filters"])
	}
}

// TestHogFunctionTransformationLimit: at most 20 enabled transformations
// per project; disabled ones are not counted.
func TestHogFunctionTransformationLimit(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	body := func(enabled bool) map[string]any {
		return map[string]any{"template_id": plainTemplate, "type": "transformation", "enabled": enabled}
	}
	for range 20 {
		a.createHog(1, full, body(true))
	}
	detail := "Maximum of 20 enabled transformation functions allowed per team. Please contact support if you need this limit increased, or disable some existing transformations."
	a.do(http.MethodPost, hogPath("projects", 1), full, body(true)).wantError(t, 400, "validation_error", "invalid_input", detail, "type")
	off := a.createHog(1, full, body(false))
	a.do(http.MethodPatch, hogPath("projects", 1, as[string](t, off["id"])), full, map[string]any{"enabled": true}).
		wantError(t, 400, "validation_error", "invalid_input", detail, "type")
	a.createHog(2, full, body(true))
}

// TestHogFunctionsOfConfigs: the hog functions generation 2 made of
// configs are the API's too: read (their template and execution_order
// tell a client which config they stand for), changed and deleted through
// it.
func TestHogFunctionsOfConfigs(t *testing.T) {
	a := newAPI(t, localapi.Options{Generation: 2})
	a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "8", "order": "3",
		"config": `{"apiKey": "k", "normalizedCurrency": "EUR", "openExchangeRatesApiKey": "o"}`}).want(t, 201)
	made := a.srv.HogFunctions()
	if len(made) != 1 {
		t.Fatalf("made %+v", made)
	}
	p := hogPath("projects", 1, made[0].ID)
	hf := a.do(http.MethodGet, p, localapi.KeyOrg, nil).want(t, 200).object(t)
	if hf["execution_order"] != float64(3) || hf["type"] != "transformation" || hf["name"] != "Currency Normalizer" ||
		as[map[string]any](t, hf["template"])["id"] != "plugin-currency-normalization-plugin" {
		t.Errorf("the function of a config %v", hf)
	}
	// apiKey is not the template's; its required inputs with a default take it.
	inputs := as[map[string]any](t, hf["inputs"])
	if _, has := inputs["apiKey"]; has || len(inputs) != 6 || as[map[string]any](t, inputs["amountProperty"])["value"] != "amount" ||
		as[map[string]any](t, inputs["normalizedCurrency"])["value"] != "EUR" {
		t.Errorf("inputs %v", inputs)
	}
	a.do(http.MethodPatch, p, localapi.KeyOrg, map[string]any{"inputs": map[string]any{
		"openExchangeRatesApiKey": map[string]any{"value": "o2"}, "normalizedCurrency": map[string]any{"value": "USD"}}}).want(t, 200)
	if s := storedHog(t, a.srv, made[0].ID); !strings.Contains(string(s.Inputs), `"normalizedCurrency":{"value":"USD"`) {
		t.Errorf("inputs %s", s.Inputs)
	}
	if err := a.srv.SetGeneration(3); err != nil {
		t.Fatal(err)
	}
	a.do(http.MethodPatch, p, localapi.KeyOrg, map[string]any{"deleted": true}).want(t, 200)
	a.do(http.MethodGet, p, localapi.KeyOrg, nil).want(t, 404)
}

// TestHogFunctionsTableUpgrade: a database file whose hog_functions table
// predates the hog function API opens with its rows, and so does one that
// predates icon_url; a row stored while its code and schema were its
// template's shows the template's.
func TestHogFunctionsTableUpgrade(t *testing.T) {
	first := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", first)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE hog_functions (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, team_id INTEGER NOT NULL,
			plugin_id INTEGER NOT NULL, type TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL, enabled INTEGER NOT NULL,
			template_id TEXT NOT NULL, source_config_id INTEGER, inputs TEXT NOT NULL, filters TEXT NOT NULL,
			execution_order INTEGER NOT NULL, created_at INTEGER NOT NULL)`,
		`INSERT INTO hog_functions VALUES (1, '0190aaaa-0000-7000-8000-000000000001', 1, 1, 'transformation', 'GeoIP', '', 1,
			'plugin-posthog-plugin-geoip', 5, '{}', '{}', 2, 1700000000000000)`,
	} {
		if _, err := db.ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	a := newAPI(t, localapi.Options{DBPath: first})
	hfs := a.srv.HogFunctions()
	if len(hfs) != 1 || hfs[0].ExecutionOrder == nil || *hfs[0].ExecutionOrder != 2 || hfs[0].Deleted || !hfs[0].UpdatedAt.Equal(hfs[0].CreatedAt) ||
		hfs[0].IconURL != nil {
		t.Fatalf("upgraded %+v", hfs)
	}
	got := a.do(http.MethodGet, hogPath("projects", 1, hfs[0].ID), full, nil).want(t, 200).object(t)
	if got["hog"] != "return event" || !jsonEqual(t, got["inputs_schema"], `[]`) {
		t.Errorf("the template's code and schema: %v", got)
	}
	a.do(http.MethodPatch, hogPath("projects", 1, hfs[0].ID), full, map[string]any{"execution_order": nil, "enabled": false}).want(t, 200)
	if hf := storedHog(t, a.srv, hfs[0].ID); hf.ExecutionOrder != nil {
		t.Errorf("execution_order %v, want none", *hf.ExecutionOrder)
	}
	a.createHog(1, full, map[string]any{"template_id": plainTemplate})

	// A table of the hog function API before icon_url.
	second := filepath.Join(t.TempDir(), "second.db")
	if db, err = sql.Open("sqlite", second); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE hog_functions (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, team_id INTEGER NOT NULL,
			plugin_id INTEGER NOT NULL, type TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL, enabled INTEGER NOT NULL,
			template_id TEXT NOT NULL, source_config_id INTEGER, inputs TEXT NOT NULL, filters TEXT NOT NULL,
			execution_order INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
			hog TEXT, inputs_schema TEXT)`,
		`INSERT INTO hog_functions VALUES (1, '0190aaaa-0000-7000-8000-000000000002', 1, 0, 'destination', 'Own', '', 0,
			'', NULL, '{}', '{}', NULL, 1700000000000000, 1700000000000000, 0, 'return 1', '[]')`,
	} {
		if _, err := db.ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	b := newAPI(t, localapi.Options{DBPath: second})
	if hfs := b.srv.HogFunctions(); len(hfs) != 1 || hfs[0].Hog == nil || *hfs[0].Hog != "return 1" {
		t.Fatalf("second upgrade %+v", hfs)
	}
	b.do(http.MethodPatch, hogPath("projects", 1, "0190aaaa-0000-7000-8000-000000000002"), full, map[string]any{"icon_url": "i"}).want(t, 200)
	if hf := storedHog(t, b.srv, "0190aaaa-0000-7000-8000-000000000002"); hf.IconURL == nil || *hf.IconURL != "i" {
		t.Errorf("icon_url after the upgrade %+v", hf)
	}
}

// TestHogFunctionsToday: on today's service, where every key has scopes
// (those without any have "*"), a key without scopes still manages hog
// functions, and a method the routes do not serve is refused in today's
// words; DELETE stays PostHog's 405. A hidden template is refused to a
// create, and a function made from one (by the bulk migration, or before
// today) may be disabled or deleted but not kept enabled.
func TestHogFunctionsToday(t *testing.T) {
	a := newAPI(t, localapi.Options{Today: true})
	hf := a.createHog(1, full, map[string]any{"template_id": plainTemplate})
	p := hogPath("environments", 1, as[string](t, hf["id"]))
	a.do(http.MethodPatch, p, localapi.KeyOrg, map[string]any{"enabled": true}).want(t, 200)
	a.do(http.MethodPut, hogPath("projects", 1), full, map[string]any{}).wantError(t, 403, "authentication_error", "permission_denied",
		localapi.DetailNoKeyAccessToday, "")
	if r := a.do(http.MethodDelete, p, full, nil).want(t, 405); len(r.body) != 0 {
		t.Errorf("DELETE answered %q", r.body)
	}

	geo := "plugin-posthog-plugin-geoip"
	a.do(http.MethodPost, hogPath("projects", 1), full, map[string]any{"template_id": geo}).wantError(t, 400, "validation_error",
		"invalid_input", "Template '"+geo+"' is internal and cannot be used to create a function.", "template_id")
	a.srv.SetToday(false)
	hidden := hogPath("projects", 1, as[string](t, a.createHog(1, full, map[string]any{"template_id": geo, "enabled": true})["id"]))
	a.srv.SetToday(true)
	kept := "This function was created from an internal template and can only be disabled or deleted, not kept enabled."
	a.do(http.MethodPatch, hidden, full, map[string]any{"name": "renamed"}).wantError(t, 400, "validation_error", "invalid_input", kept, "enabled")
	a.do(http.MethodPatch, hidden, full, map[string]any{"enabled": false, "name": "renamed"}).want(t, 200)
	a.do(http.MethodPatch, hidden, full, map[string]any{"enabled": true}).wantError(t, 400, "validation_error", "invalid_input", kept, "enabled")
	a.do(http.MethodPatch, hidden, full, map[string]any{"deleted": true}).want(t, 200)
	if n := len(a.srv.HogFunctions()); n != 2 {
		t.Errorf("%d hog functions, want 2", n)
	}
}
