package localapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// templatePath builds /api/projects/<project>/hog_function_templates/[<id>/].
func templatePath(project any, id ...string) string {
	p := fmt.Sprintf("/api/projects/%v/hog_function_templates/", project)
	for _, s := range id {
		p += s + "/"
	}
	return p
}

// legacyTemplate is an entry of the legacy template catalog's data.
type legacyTemplate struct {
	ID           string          `json:"template_id"`
	Name         string          `json:"name"`
	Type         string          `json:"type"`
	Status       string          `json:"status"`
	Description  string          `json:"description"`
	PluginURL    string          `json:"plugin_url"`
	AlsoMatches  []string        `json:"plugin_url_also_matches"`
	InputsSchema []templateInput `json:"inputs_schema"`
	RawSchema    json.RawMessage `json:"-"`
	Filters      json.RawMessage `json:"filters"`
}

// templateInput is what the tests read of an inputs_schema entry.
type templateInput struct {
	Key     string   `json:"key"`
	Type    string   `json:"type"`
	Choices []string `json:"choices"`
}

const embeddedTemplates = "templatedata/legacy-plugin-templates.json"

// embeddedLegacyTemplates reads the local API's copy of the catalog.
func embeddedLegacyTemplates(t *testing.T) []legacyTemplate {
	t.Helper()
	data, err := os.ReadFile(embeddedTemplates)
	if err != nil {
		t.Fatal(err)
	}
	var out []legacyTemplate
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	var raw []struct {
		Schema json.RawMessage `json:"inputs_schema"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		out[i].RawSchema = raw[i].Schema
	}
	return out
}

// TestEmbeddedTemplatesAreTheShared: the local API's copy of the legacy
// template catalog is ../shared/api/legacy-plugin-templates.json, byte for
// byte. Without that file (a checkout of the repository alone) the test
// says so and is skipped, except in CI, where it must be there.
func TestEmbeddedTemplatesAreTheShared(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for ; ; root = filepath.Dir(root) {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		if root == filepath.Dir(root) {
			t.Fatal("no go.mod above the package")
		}
	}
	shared := filepath.Join(filepath.Dir(root), "shared", "api", "legacy-plugin-templates.json")
	want, err := os.ReadFile(shared)
	switch {
	case os.IsNotExist(err) && os.Getenv("CI") != "":
		t.Fatalf("%s is not there: CI checks the embedded copy against it", shared)
	case os.IsNotExist(err):
		t.Skipf("%s is not there: the embedded copy %s is not checked (CI checks it)", shared, embeddedTemplates)
	case err != nil:
		t.Fatal(err)
	}
	got, err := os.ReadFile(embeddedTemplates)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s: copy it again", embeddedTemplates, shared)
	}
}

// TestLegacyTemplatesServed: every legacy template is served by id, as
// the data gives it (id, name, description, type, status, inputs_schema,
// no filters), with the fields of PostHog's template serializer in order:
// 25 transformations and 15 destinations, GeoIP's hidden, three stable,
// the rest deprecated.
func TestLegacyTemplatesServed(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	templates := embeddedLegacyTemplates(t)
	types, statuses := map[string]int{}, map[string][]string{}
	for _, tpl := range templates {
		types[tpl.Type]++
		statuses[tpl.Status] = append(statuses[tpl.Status], tpl.ID)
		r := a.do(http.MethodGet, templatePath(1, tpl.ID), localapi.KeyOrg, nil).want(t, 200)
		want := []string{"id", "name", "description", "code", "code_language", "inputs_schema", "type", "status", "category",
			"free", "icon_url", "filters", "masking", "mapping_templates"}
		if got := keysOf(t, r.body); !slices.Equal(got, want) {
			t.Errorf("%s: fields %v, want %v", tpl.ID, got, want)
		}
		got := r.object(t)
		if got["id"] != tpl.ID || got["name"] != tpl.Name || got["description"] != tpl.Description || got["type"] != tpl.Type ||
			got["status"] != tpl.Status || got["filters"] != nil || got["code"] != "return event" || got["code_language"] != "javascript" ||
			!jsonEqual(t, got["inputs_schema"], string(tpl.RawSchema)) {
			t.Errorf("%s: served %v", tpl.ID, got)
		}
	}
	wantStatuses := map[string][]string{
		"hidden": {"plugin-posthog-plugin-geoip"},
		"stable": {"plugin-language-url-splitter-app", "plugin-taxonomy-plugin", "plugin-timestamp-parser-plugin"},
	}
	if len(templates) != 40 || types["transformation"] != 25 || types["destination"] != 15 ||
		!slices.Equal(statuses["hidden"], wantStatuses["hidden"]) || !slices.Equal(statuses["stable"], wantStatuses["stable"]) ||
		len(statuses["deprecated"]) != 36 {
		t.Errorf("%d templates, by type %v, by status %v", len(templates), types, statuses)
	}
}

// TestTemplatesList: without type or types only destinations; type wins
// over types; template_id narrows; deprecated templates never listed,
// hidden ones are; retrieve finds any status, 404 for an unknown id;
// limit/offset pages; each page sorted by how many enabled functions (of
// every project) use a template, then by name.
func TestTemplatesList(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	ids := func(query string) []string {
		page := a.do(http.MethodGet, templatePath("@current")+query, full, nil).want(t, 200).object(t)
		var out []string
		for _, r := range results(t, page) {
			out = append(out, as[string](t, r["id"]))
		}
		if num(page, "count") != int64(len(out)) && query != "?type=transformation&limit=2" {
			t.Errorf("%s: count %v of %d", query, page["count"], len(out))
		}
		return out
	}
	transformations := []string{"template-geoip", "plugin-posthog-plugin-geoip", "plugin-language-url-splitter-app",
		"plugin-taxonomy-plugin", "plugin-timestamp-parser-plugin"}
	for query, want := range map[string][]string{
		"":                                       {"template-sendgrid"},
		"?type=transformation":                   transformations,
		"?types=transformation":                  transformations,
		"?types=destination,transformation":      append([]string{"template-sendgrid"}, transformations...),
		"?type=destination&types=transformation": {"template-sendgrid"},
		"?type=transformation&template_id=plugin-taxonomy-plugin":     {"plugin-taxonomy-plugin"},
		"?type=transformation&template_id=plugin-downsampling-plugin": nil,
		"?template_id=plugin-taxonomy-plugin":                         nil,
		"?type=site_app":                                              nil,
	} {
		got := ids(query)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", query, got, want)
		}
	}
	// Sorted by name, once nothing uses them.
	if got := ids("?type=transformation"); !slices.Equal(got, []string{"plugin-posthog-plugin-geoip", "template-geoip",
		"plugin-language-url-splitter-app", "plugin-taxonomy-plugin", "plugin-timestamp-parser-plugin"}) {
		t.Errorf("by name %v", got)
	}
	// Then by use: two enabled functions of Taxonomy's, one of the timestamp parser's (another project's counts).
	for _, c := range []struct {
		project any
		tpl     string
		enabled bool
	}{{1, "plugin-taxonomy-plugin", true}, {2, "plugin-taxonomy-plugin", true}, {1, "plugin-timestamp-parser-plugin", true},
		{1, "plugin-language-url-splitter-app", false}} {
		a.createHog(c.project, full, map[string]any{"template_id": c.tpl, "enabled": c.enabled})
	}
	if got := ids("?type=transformation"); !slices.Equal(got, []string{"plugin-taxonomy-plugin", "plugin-timestamp-parser-plugin",
		"plugin-posthog-plugin-geoip", "template-geoip", "plugin-language-url-splitter-app"}) {
		t.Errorf("by use %v", got)
	}
	page := a.do(http.MethodGet, templatePath(1)+"?type=transformation&limit=2", full, nil).want(t, 200).object(t)
	if num(page, "count") != 5 || len(results(t, page)) != 2 || page["next"] == nil || page["previous"] != nil {
		t.Errorf("first page %v", page)
	}
	// Retrieve: any status, trailing slash optional.
	for _, id := range []string{"plugin-downsampling-plugin", "plugin-posthog-plugin-geoip", "template-sendgrid"} {
		a.do(http.MethodGet, templatePath(2, id)[:len(templatePath(2, id))-1], full, nil).want(t, 200)
	}
	a.do(http.MethodGet, templatePath(1, "plugin-nope"), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	// No /api/environments/ mount.
	a.do(http.MethodGet, "/api/environments/1/hog_function_templates/", full, nil).want(t, 404)
	a.do(http.MethodGet, templatePath(999), full, nil).wantError(t, 404, "invalid_request", "not_found", "Project not found.", "")
	if c := a.srv.Counters(); c["hog_function_template_list"] == 0 || c["hog_function_template_retrieve"] != 4 {
		t.Errorf("counters %v", c)
	}
}

// TestSeededPluginsTemplates: each seeded plugin's url maps to the template
// PostHog's slug rule gives, or to none on purpose, and no seeded plugin
// has a migrator (the plugin listings' hog_function_migration_available).
func TestSeededPluginsTemplates(t *testing.T) {
	a := newAPI(t, localapi.Options{Generation: 2})
	want := map[int64]string{1: "plugin-posthog-plugin-geoip", 2: "plugin-property-filter-plugin", 5: "plugin-taxonomy-plugin",
		8: "plugin-currency-normalization-plugin", 10: "plugin-semver-flattener-plugin", 11: "plugin-user-agent-plugin"}
	configs := map[int64]string{2: `{"properties": "p"}`, 8: `{"openExchangeRatesApiKey": "k", "normalizedCurrency": "EUR"}`, 10: `{"properties": "p"}`}
	for _, p := range localapi.DefaultPlugins() {
		coll := tr
		if slices.Contains(p.Collections(), ia) {
			coll = ia
		}
		cfg := configs[p.ID]
		if cfg == "" {
			cfg = "{}"
		}
		r := a.form(http.MethodPost, path(1, coll), full, map[string]string{"plugin": fmt.Sprint(p.ID), "order": "1", "config": cfg})
		hfs := a.srv.HogFunctions()
		switch tpl, ok := want[p.ID]; {
		case ok && (r.status != 201 || len(hfs) == 0 || hfs[len(hfs)-1].TemplateID != tpl || hfs[len(hfs)-1].Plugin != p.ID):
			t.Errorf("plugin %d: %d %s, want a function of %s", p.ID, r.status, r.body, tpl)
		case !ok && r.status != 400:
			t.Errorf("plugin %d: %d %s, want none", p.ID, r.status, r.body)
		}
		listed := a.do(http.MethodGet, orgPath("@current", "plugins", p.ID), full, nil).want(t, 200).object(t)
		if listed["hog_function_migration_available"] != false {
			t.Errorf("plugin %d: hog_function_migration_available %v", p.ID, listed["hog_function_migration_available"])
		}
	}
	if n := len(a.srv.HogFunctions()); n != len(want) {
		t.Errorf("%d hog functions, want %d", n, len(want))
	}
}
