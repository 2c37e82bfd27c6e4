package kind

import (
	"encoding/json"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
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
