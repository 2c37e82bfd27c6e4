package localapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestSetPlugin upgrades a plugin at run time, as the service's plugin
// upgrades do: a config that has no name or description of its own shows
// the new ones (text, then "" and null), its plugin_info the new schema in
// its new form, and a plugin whose capabilities change moves its configs
// to the collection that now shows them.
func TestSetPlugin(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.form(http.MethodPost, path(1, tr), full, map[string]string{
		"plugin": "1", "order": "1", "config": `{"api_key": "s3cret", "locale": "en"}`,
	}).want(t, 201).object(t)
	get := func() map[string]any {
		return a.do(http.MethodGet, path(1, tr, id(rec)), full, nil).want(t, 200).object(t)
	}

	p := pluginByID(1)
	p.Name, p.Description, p.Tag = text("GeoIP 2"), text("Now with cities."), "v2.0.0"
	if err := a.srv.SetPlugin(p); err != nil {
		t.Fatal(err)
	}
	if got := get(); got["name"] != "GeoIP 2" || got["description"] != "Now with cities." {
		t.Errorf("after the rename: %v / %v", got["name"], got["description"])
	}

	// Blank text and the older schema form: api_key is no longer secret.
	p.Name, p.Description = text(""), nil
	p.ConfigSchema = localapi.ObjectSchema(p.ConfigSchema.Fields...)
	if err := a.srv.SetPlugin(p); err != nil {
		t.Fatal(err)
	}
	got := get()
	info := as[map[string]any](t, got["plugin_info"])
	if got["name"] != "" || got["description"] != nil || info["name"] != "" || info["description"] != nil {
		t.Errorf("after blanking: %#v / %#v, plugin_info %#v / %#v", got["name"], got["description"], info["name"], info["description"])
	}
	if _, isObject := info["config_schema"].(map[string]any); !isObject {
		t.Errorf("config_schema %v, want the object form", info["config_schema"])
	}
	if cfg := as[map[string]any](t, got["config"]); cfg["api_key"] != "s3cret" {
		t.Errorf("config %v: the object form masks nothing", cfg)
	}

	// New capabilities: the configs move to the import apps.
	p.Capabilities = localapi.Capabilities{ScheduledTasks: []string{"runEveryHour"}}
	if err := a.srv.SetPlugin(p); err != nil {
		t.Fatal(err)
	}
	a.do(http.MethodGet, path(1, tr, id(rec)), full, nil).want(t, 404)
	page := a.do(http.MethodGet, path(1, ia), full, nil).want(t, 200).object(t)
	if recs := results(t, page); len(recs) != 1 || id(recs[0]) != id(rec) {
		t.Errorf("import apps list %v, want the moved config", page)
	}

	// A new plugin; and one that is not valid changes nothing.
	if err := a.srv.SetPlugin(localapi.Plugin{ID: 42, Capabilities: localapi.Capabilities{Methods: []string{"processEvent"}}}); err != nil {
		t.Fatal(err)
	}
	if added := a.create(1, tr, full, map[string]any{"plugin": 42, "order": 1}); added["name"] != nil {
		t.Errorf("a config of a plugin without a name: name %#v", added["name"])
	}
	bad := localapi.Plugin{ID: 42, ConfigSchema: localapi.ListSchema(localapi.ConfigField{})}
	if err := a.srv.SetPlugin(bad); err == nil || !strings.Contains(err.Error(), "no key") {
		t.Errorf("SetPlugin of a field without key: %v", err)
	}
	if n := len(a.srv.Plugins()); n != len(localapi.DefaultPlugins())+1 {
		t.Errorf("%d plugins, want the seeded ones and plugin 42", n)
	}
}

// TestSetPluginConcurrently upgrades a plugin while requests read and write
// its configs; run with -race, it shows the catalog is swapped safely, and
// every answer shows one catalog or the other, never a mix.
func TestSetPluginConcurrently(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1})
	p := pluginByID(2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 50 {
			q := p
			if i%2 == 1 {
				q.Name, q.Description = text("Property Filter v2"), text("v2")
			}
			if err := a.srv.SetPlugin(q); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		// No Fatal off the test's goroutine: errors end the loop.
		for range 50 {
			r := a.do(http.MethodGet, path(1, tr, id(rec)), full, nil)
			var got struct {
				Name, Description *string
				PluginInfo        struct{ Name, Description *string } `json:"plugin_info"`
			}
			if err := json.Unmarshal(r.body, &got); r.status != http.StatusOK || err != nil {
				t.Errorf("retrieve: %d %s", r.status, r.body)
				return
			}
			if *got.Name != *got.PluginInfo.Name || *got.Description != *got.PluginInfo.Description {
				t.Errorf("an answer mixes catalogs: %q / %q, plugin_info %q / %q", *got.Name, *got.Description,
					*got.PluginInfo.Name, *got.PluginInfo.Description)
				return
			}
			if r := a.do(http.MethodGet, path(1, tr), full, nil); r.status != http.StatusOK {
				t.Errorf("list: %d %s", r.status, r.body)
				return
			}
		}
	}()
	wg.Wait()
}

// TestDebugPluginRoutes: GET /_localapi/plugins lists the catalog, PUT
// /_localapi/plugins/{id} upgrades or adds one (the body's id may be left
// out, and must be the path's when given).
func TestDebugPluginRoutes(t *testing.T) {
	a := newAPI(t, localapi.Options{DebugRoutes: true})
	var plugins []map[string]any
	if err := json.Unmarshal(a.do(http.MethodGet, "/_localapi/plugins", "", nil).want(t, 200).body, &plugins); err != nil {
		t.Fatal(err)
	}
	if len(plugins) != len(localapi.DefaultPlugins()) || plugins[6]["name"] != nil || plugins[5]["name"] != "" {
		t.Errorf("plugins %v", plugins)
	}
	if _, isObject := plugins[7]["config_schema"].(map[string]any); !isObject {
		t.Errorf("plugin 8's config_schema %v, want the object form", plugins[7]["config_schema"])
	}
	rec := a.create(1, ia, full, map[string]any{"plugin": 4, "order": 1})
	a.do(http.MethodPut, "/_localapi/plugins/4", "", `{"name": null, "description": "Daily rows.",
		"capabilities": {"scheduled_tasks": ["runEveryDay"]}, "config_schema": {"dataset": {"type": "string"}}}`).want(t, 204)
	got := a.do(http.MethodGet, path(1, ia, id(rec)), full, nil).want(t, 200).object(t)
	if got["name"] != nil || got["description"] != "Daily rows." {
		t.Errorf("after PUT: %#v / %#v", got["name"], got["description"])
	}
	a.do(http.MethodPut, "/_localapi/plugins/4", "", `{"id": 5}`).wantError(t, 400, "validation_error", "invalid_input", "The body's id 5 is not the path's 4.", "id")
	a.do(http.MethodPut, "/_localapi/plugins/4", "", `{"colour": "red"}`).want(t, 400)
	a.do(http.MethodPut, "/_localapi/plugins/x", "", `{}`).want(t, 404)
}

// TestParsePluginsTextAndSchemaForms: a -plugins file may give a name and
// description as text, "" or null (or leave them out: null), and a
// config_schema in either form, whose order the object form keeps.
func TestParsePluginsTextAndSchemaForms(t *testing.T) {
	plugins, err := localapi.ParsePlugins([]byte(`[
		{"id": 1, "name": "", "description": null, "config_schema": {"b": {"type": "string"}, "a": {"secret": true}}},
		{"id": 2, "config_schema": [{"key": "k", "secret": true}]},
		{"id": 3, "name": "x", "config_schema": null}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	s := plugins[0].ConfigSchema
	if *plugins[0].Name != "" || plugins[0].Description != nil || !s.ObjectForm || len(s.Fields) != 2 || s.Fields[0].Key != "b" || s.Fields[1].Key != "a" {
		t.Errorf("plugin 1: %+v", plugins[0])
	}
	if plugins[1].Name != nil || plugins[1].ConfigSchema.ObjectForm || plugins[1].ConfigSchema.Fields[0].Key != "k" {
		t.Errorf("plugin 2: %+v", plugins[1])
	}
	for _, p := range plugins {
		out, err := json.Marshal(p.ConfigSchema)
		if err != nil {
			t.Fatal(err)
		}
		var back localapi.ConfigSchema
		if err := json.Unmarshal(out, &back); err != nil || back.ObjectForm != p.ConfigSchema.ObjectForm || len(back.Fields) != len(p.ConfigSchema.Fields) {
			t.Errorf("config_schema %s does not read back: %+v, %v", out, back, err)
		}
	}
	if out, _ := json.Marshal(plugins[0].ConfigSchema); string(out) != `{"b":{"type":"string"},"a":{"secret":true}}` {
		t.Errorf("object form written as %s", out)
	}
	if out, _ := json.Marshal(plugins[2].ConfigSchema); string(out) != `[]` {
		t.Errorf("no fields written as %s, want []", out)
	}
}

// TestCapabilitiesGivenLists: a capability list given empty is shown as []
// (the service tells methods: [] from no methods); one left out is not.
func TestCapabilitiesGivenLists(t *testing.T) {
	plugins, err := localapi.ParsePlugins([]byte(`[{"id": 1, "capabilities": {"methods": [], "jobs": null}}]`))
	if err != nil {
		t.Fatal(err)
	}
	a := newAPI(t, localapi.Options{Plugins: plugins})
	got := a.do(http.MethodGet, "/api/organizations/@current/plugins/1/", star, nil).want(t, 200).object(t)
	if !jsonEqual(t, got["capabilities"], `{"methods": []}`) {
		t.Errorf("capabilities %v, want the empty methods only", got["capabilities"])
	}
	out, err := json.Marshal(localapi.Capabilities{ScheduledTasks: []string{"runEveryHour"}})
	if err != nil || string(out) != `{"scheduled_tasks":["runEveryHour"]}` {
		t.Errorf("%s, %v", out, err)
	}
}
