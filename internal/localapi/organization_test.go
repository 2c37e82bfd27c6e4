package localapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// The organization's plugin listings and the plugins each shows: every
// plugin, or those of one config collection.
var listings = []struct {
	name string
	ids  []int64
}{
	{"plugins", []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
	{"pipeline_transformations", []int64{1, 2, 5, 6, 8, 10, 11}},
	{"pipeline_import_apps", []int64{3, 4, 7, 9}},
}

// orgPath builds /api/organizations/<org>/<listing>/<rest...>/.
func orgPath(org any, listing string, rest ...any) string {
	p := fmt.Sprintf("/api/organizations/%v/%s/", org, listing)
	for _, r := range rest {
		p += fmt.Sprint(r) + "/"
	}
	return p
}

// pluginOperations are the listings' operations, and methods they do not
// serve, for the auth matrix (the project is the organization, the
// collection the listing).
var pluginOperations = []operation{
	{"plugin_list", "GET", func(o any, l string, _ int64) string { return orgPath(o, l) }, nil, 200, "plugin:read", allGens},
	{"plugin_retrieve", "GET", func(o any, l string, p int64) string { return orgPath(o, l, p) }, nil, 200, "plugin:read", allGens},
	{"listing POST", "POST", func(o any, l string, _ int64) string { return orgPath(o, l) }, map[string]any{}, 405, "", allGens},
	{"plugin DELETE", "DELETE", func(o any, l string, p int64) string { return orgPath(o, l, p) }, nil, 405, "", allGens},
}

// TestPluginListingsAuthMatrix sends every operation of every listing with
// every kind of key to every kind of organization address, at every
// version and in today's mode, and checks the answer against the live
// rules: project-limited keys with scopes get 403 (PostHog checks
// scoped_teams only for them; on today's service every key has scopes), an
// unknown organization or one that is not a UUID 404, and version F
// (generation 3) has no listings.
func TestPluginListingsAuthMatrix(t *testing.T) {
	keys := append(matrixKeys[:len(matrixKeys):len(matrixKeys)],
		localapi.APIKey{Key: "k_legacy_limited", Projects: []int64{1}, LimitedToProjects: true},
		localapi.APIKey{Key: "k_star_limited", Scopes: []string{"*"}, Projects: []int64{1, 2}, LimitedToProjects: true},
	)
	a := newAPI(t, localapi.Options{Keys: keys})
	cases := append([]localapi.APIKey{{Key: ""}, {Key: "phx_not_a_key"}}, keys...)
	orgs := []string{"@current", localapi.OrganizationID, strings.ToUpper(strings.ReplaceAll(localapi.OrganizationID, "-", "")),
		"{" + localapi.OrganizationID + "}", "01890000-0000-7000-8000-000000000999", "abc"}
	for _, m := range modes {
		a.srv.SetToday(m.today)
		if err := a.srv.SetVersion(m.v); err != nil {
			t.Fatal(err)
		}
		today := m.v == localapi.VersionE2026
		for _, l := range listings {
			for _, k := range cases {
				for i, org := range orgs {
					for _, op := range pluginOperations {
						t.Run(fmt.Sprintf("%s/%s/%s/%d/%s", modeName(m.v, m.today), l.name, k.Key, i, op.name), func(t *testing.T) {
							r := a.do(op.method, op.path(org, l.name, l.ids[0]), k.Key, op.body)
							scoped := len(k.Scopes) > 0 || today
							switch {
							case m.v == localapi.VersionF:
								r.wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
							case k.Key == "":
								r.wantError(t, 401, "authentication_error", "not_authenticated", "Authentication credentials were not provided.", "")
							case k.Key == "phx_not_a_key":
								r.wantError(t, 401, "authentication_error", "authentication_failed", "Personal API key found in request Authorization header is invalid.", "")
							case i >= 4:
								r.wantError(t, 404, "invalid_request", "not_found", "Organization not found.", "")
							case today && op.scope == "":
								r.wantError(t, 403, "authentication_error", "permission_denied", localapi.DetailNoKeyAccessToday, "")
							case scoped && op.scope == "":
								r.wantError(t, 403, "authentication_error", "permission_denied", localapi.DetailNoKeyAccess, "")
							case scoped && k.LimitedToProjects:
								r.wantError(t, 403, "authentication_error", "permission_denied", "API keys with scoped projects are only supported on project-based endpoints.", "")
							case len(k.Scopes) > 0 && !hasScope(k.Scopes, op.scope): // "*" for a key without scopes
								r.wantError(t, 403, "authentication_error", "permission_denied", "API key missing required scope 'plugin:read'", "")
							case op.success == 405:
								r.wantError(t, 405, "invalid_request", "method_not_allowed", fmt.Sprintf("Method %q not allowed.", op.method), "")
							default:
								r.want(t, op.success)
							}
						})
					}
				}
			}
		}
	}
}

// TestSeededKeysAndPluginListings: the keys limited to project 1 are
// refused, the organization-wide ones may read; nothing else changed for
// KeyFull and KeyStar (TestAuthMatrix).
func TestSeededKeysAndPluginListings(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for key, status := range map[string]int{full: 200, star: 200, localapi.KeyOrg: 200, write: 403, read: 403} {
		a.do(http.MethodGet, orgPath("@current", "pipeline_transformations"), key, nil).want(t, status)
	}
}

// TestPluginListings: each listing shows its plugins by id, in the
// serializer's fields and order, the same as a config's plugin_info and
// hog_function_migration_available.
func TestPluginListings(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	fields := []string{"id", "plugin_type", "name", "description", "url", "icon", "config_schema", "tag", "latest_tag",
		"is_global", "organization_id", "organization_name", "capabilities", "metrics", "public_jobs", "hog_function_migration_available"}
	for _, l := range listings {
		page := a.do(http.MethodGet, orgPath("@current", l.name), localapi.KeyOrg, nil).want(t, 200).object(t)
		var ids []int64
		for _, p := range results(t, page) {
			ids = append(ids, id(p))
		}
		if !slices.Equal(ids, l.ids) || num(page, "count") != int64(len(l.ids)) || page["next"] != nil || page["previous"] != nil {
			t.Errorf("%s: ids %v of page %v, want %v", l.name, ids, page, l.ids)
		}
	}
	r := a.do(http.MethodGet, orgPath(localapi.OrganizationID, "plugins", 1), localapi.KeyOrg, nil).want(t, 200)
	last := -1
	for _, f := range fields {
		at := strings.Index(string(r.body), `"`+f+`":`)
		if at <= last {
			t.Errorf("field %s missing or out of order: %s", f, r.body)
		}
		last = at
	}
	geoip := r.object(t)
	if len(geoip) != len(fields) {
		t.Errorf("fields of %v, want %v", geoip, fields)
	}
	want := `{"url": "https://github.com/PostHog/posthog-plugin-geoip", "tag": "v1.4.0", "latest_tag": "v1.5.0", "is_global": true,
		"icon": "https://raw.githubusercontent.com/PostHog/posthog-plugin-geoip/main/logo.png", "plugin_type": "repository",
		"organization_id": "` + localapi.OrganizationID + `", "organization_name": "` + localapi.OrganizationName + `",
		"capabilities": {"methods": ["processEvent"]}, "metrics": {}, "public_jobs": {}, "hog_function_migration_available": false}`
	for k, v := range mapOf(t, want) {
		if !jsonEqual(t, geoip[k], mustJSON(t, v)) {
			t.Errorf("%s = %#v, want %#v", k, geoip[k], v)
		}
	}
	// The same facts as a config's plugin_info.
	rec := a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
	rec = a.do(http.MethodGet, path(1, tr, id(rec)), full, nil).want(t, 200).object(t)
	delete(geoip, "hog_function_migration_available")
	if !jsonEqual(t, rec["plugin_info"], mustJSON(t, geoip)) {
		t.Errorf("plugin_info %v, listing %v", rec["plugin_info"], geoip)
	}
	// The other forms: no url, null text, the object schema; none has a
	// migrator (TestMigratorListed has one).
	for id, want := range map[int64]string{
		2:  `{"hog_function_migration_available": false, "public_jobs": {"Reprocess": {"payload": {"since": {"type": "date", "required": true}}}}}`,
		6:  `{"url": null, "name": "", "description": null, "tag": null, "latest_tag": null, "icon": null, "plugin_type": "source", "hog_function_migration_available": false}`,
		8:  `{"config_schema": {"apiKey": {"name": "Open Exchange Rates API key", "type": "string", "secret": true}, "normalizedCurrency": {"name": "Currency to convert to", "type": "string"}}}`,
		10: `{"url": "inline://semver-flattener", "plugin_type": "inline", "hog_function_migration_available": false}`,
	} {
		p := a.do(http.MethodGet, orgPath("@current", "plugins", id), localapi.KeyOrg, nil).want(t, 200).object(t)
		for k, v := range mapOf(t, want) {
			if !jsonEqual(t, p[k], mustJSON(t, v)) {
				t.Errorf("plugin %d: %s = %#v, want %#v", id, k, p[k], v)
			}
		}
	}
}

// TestMigratorListed: hog_function_migration_available is true exactly
// for a plugin whose url has a migrator (PostHog's
// HOG_FUNCTION_MIGRATORS.get(plugin.url)), whatever its capabilities: a
// destination shows in the plugins listing only.
func TestMigratorListed(t *testing.T) {
	dest := localapi.Plugin{ID: 20, Name: text("Sendgrid"), URL: "https://github.com/PostHog/sendgrid-plugin",
		Capabilities: localapi.Capabilities{Methods: []string{"onEvent"}}}
	a := newAPI(t, localapi.Options{Plugins: append(withMigrator(), dest)})
	for id, want := range map[int64]bool{12: true, 13: true, 20: true, 1: false, 3: false} {
		if p := a.do(http.MethodGet, orgPath("@current", "plugins", id), localapi.KeyOrg, nil).want(t, 200).object(t); p["hog_function_migration_available"] != want {
			t.Errorf("plugin %d: hog_function_migration_available %v, want %v", id, p["hog_function_migration_available"], want)
		}
	}
	for _, l := range []string{"pipeline_transformations", "pipeline_import_apps"} {
		a.do(http.MethodGet, orgPath("@current", l, 20), localapi.KeyOrg, nil).want(t, 404)
	}
}

// TestPluginRetrieve: a listing shows only its own plugins by id; trailing
// slashes are optional; an unknown id or one that is not an integer is 404.
func TestPluginRetrieve(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, l := range listings {
		for id := int64(0); id <= 12; id++ {
			r := a.do(http.MethodGet, strings.TrimSuffix(orgPath("@current", l.name, id), "/"), star, nil)
			if slices.Contains(l.ids, id) {
				r.want(t, 200)
			} else {
				r.wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
			}
		}
		a.do(http.MethodGet, orgPath("@current", l.name, "abc"), star, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
		a.do(http.MethodGet, strings.TrimSuffix(orgPath("@current", l.name), "/"), star, nil).want(t, 200)
	}
	a.do(http.MethodGet, "/api/organizations/@current/plugins/1/source/", star, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	a.do(http.MethodGet, "/api/organizations/@current/pipeline_destinations/", star, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	if c := a.srv.Counters(); c["plugin_retrieve"] != 3*13+3 || c["plugin_list"] != 3 {
		t.Errorf("counters %v", c)
	}
}

// TestPluginListingPagination: limit and offset as in the config lists.
func TestPluginListingPagination(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	base := a.url + orgPath("@current", "pipeline_transformations")
	var ids []int64
	next := base + "?limit=3"
	for pages := 0; next != ""; pages++ {
		page := a.do(http.MethodGet, strings.TrimPrefix(next, a.url), star, nil).want(t, 200).object(t)
		if num(page, "count") != 7 || pages > 3 {
			t.Fatalf("page %v", page)
		}
		for _, p := range results(t, page) {
			ids = append(ids, id(p))
		}
		next, _ = page["next"].(string)
		if pages == 1 && page["previous"] != base+"?limit=3" {
			t.Errorf("previous %v", page["previous"])
		}
	}
	if !slices.Equal(ids, listings[1].ids) {
		t.Errorf("ids %v", ids)
	}
	for _, q := range []string{"?limit=0", "?limit=abc", "?offset=junk"} {
		if page := a.do(http.MethodGet, orgPath("@current", "plugins")+q, star, nil).want(t, 200).object(t); len(results(t, page)) != 11 {
			t.Errorf("%s: %v", q, page)
		}
	}
	page := a.do(http.MethodGet, orgPath("@current", "plugins")+"?offset=50", star, nil).want(t, 200).object(t)
	if len(results(t, page)) != 0 || num(page, "count") != 11 || page["results"] == nil {
		t.Errorf("offset past the end: %v", page)
	}
}

// TestPluginListingsFollowTheCatalog: an upgrade that changes a plugin's
// capabilities moves it between the listings, as it moves its configs.
func TestPluginListingsFollowTheCatalog(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	p := pluginByID(1)
	p.Capabilities = localapi.Capabilities{ScheduledTasks: []string{"runEveryHour"}}
	if err := a.srv.SetPlugin(p); err != nil {
		t.Fatal(err)
	}
	a.do(http.MethodGet, orgPath("@current", "pipeline_transformations", 1), star, nil).want(t, 404)
	got := a.do(http.MethodGet, orgPath("@current", "pipeline_import_apps", 1), star, nil).want(t, 200).object(t)
	if !jsonEqual(t, got["capabilities"], `{"scheduled_tasks": ["runEveryHour"]}`) {
		t.Errorf("capabilities %v", got["capabilities"])
	}
}

// mapOf decodes a JSON object.
func mapOf(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// mustJSON encodes v.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
