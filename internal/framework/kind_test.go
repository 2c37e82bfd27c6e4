package framework

import (
	"encoding/json"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

func TestKindShows(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		info                string
		transformation, imp bool
		known               bool
	}{
		"transformation":  {`{"capabilities":{"methods":["setupPlugin","processEvent"],"scheduled_tasks":[]}}`, true, false, true},
		"import app":      {`{"capabilities":{"methods":[],"scheduled_tasks":["runEveryHour"]}}`, false, true, true},
		"both":            {`{"capabilities":{"methods":["processEvent"],"scheduled_tasks":["runEveryMinute"]}}`, true, true, true},
		"neither":         {`{"capabilities":{}}`, false, false, true},
		"no capabilities": {`{"name":"x"}`, false, false, false},
		"null":            {`null`, false, false, false},
		"odd shape":       {`{"capabilities":{"methods":"processEvent"}}`, false, false, false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rec := &client.Record{PluginInfo: json.RawMessage(tt.info)}
			shows, known := Transformation.Shows(rec)
			if shows != tt.transformation || known != tt.known {
				t.Errorf("transformation: shows %v known %v, want %v %v", shows, known, tt.transformation, tt.known)
			}
			shows, known = ImportApp.Shows(rec)
			if shows != tt.imp || known != tt.known {
				t.Errorf("import app: shows %v known %v, want %v %v", shows, known, tt.imp, tt.known)
			}
		})
	}
}

func TestTypeNames(t *testing.T) {
	t.Parallel()
	if got := Transformation.TypeSuffix("order"); got != "_transformation_order" {
		t.Errorf("TypeSuffix = %s", got)
	}
	if got := ImportApp.ConfigTypeName(); got != "pipeline_import_app_config" {
		t.Errorf("ConfigTypeName = %s", got)
	}
}

func TestOwnFirst(t *testing.T) {
	for _, k := range Kinds() {
		got := k.OwnFirst()
		if len(got) != len(Kinds()) || got[0].Name != k.Name {
			t.Fatalf("%s: want every kind once, its own first, got %v", k.Name, got)
		}
		seen := map[string]bool{}
		for _, o := range got {
			if seen[o.Name] {
				t.Fatalf("%s: %s twice in %v", k.Name, o.Name, got)
			}
			seen[o.Name] = true
		}
	}
}

// TestExamplePlugin: each kind's example plugin, as the local API's catalog
// (real plugins' names and capabilities) has it, is a plugin of that kind
// and of no other, so that the docs never look one up in the wrong kind's
// listing.
func TestExamplePlugin(t *testing.T) {
	t.Parallel()
	byName := map[string]localapi.Plugin{}
	for _, p := range localapi.DefaultPlugins() {
		if p.Name != nil {
			byName[*p.Name] = p
		}
	}
	for _, k := range Kinds() {
		p, ok := byName[k.ExamplePlugin]
		if !ok {
			t.Errorf("%s: no plugin named %q in the catalog", k.Name, k.ExamplePlugin)
			continue
		}
		info, err := json.Marshal(map[string]any{"capabilities": p.Capabilities})
		if err != nil {
			t.Fatal(err)
		}
		rec := &client.Record{PluginInfo: info}
		for _, o := range Kinds() {
			if shows, _ := o.Shows(rec); shows != (o.Name == k.Name) {
				t.Errorf("%s's example plugin %q: shown by %s %v", k.Name, k.ExamplePlugin, o.Name, shows)
			}
		}
	}
}
