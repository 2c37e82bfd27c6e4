package acceptance

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// taxonomyPlugin is the plugin of PostHog's stable template
// plugin-taxonomy-plugin (one required input with a default). Decoded
// leniently from JSON: has_migrator gives it its template on a local API
// that keys templates to its catalog's migrators, and a local API without
// that field, which serves PostHog's legacy template catalog, has the
// template anyway.
const taxonomyPlugin = `{
  "id": 60, "name": "Taxonomy", "description": "Standardize your event names into a single pattern.",
  "url": "https://github.com/PostHog/taxonomy-plugin", "plugin_type": "repository", "has_migrator": true,
  "capabilities": {"methods": ["processEvent"]},
  "config_schema": [{"key": "defaultNamingConvention", "name": "Select your default naming pattern", "type": "choice",
    "required": true, "default": "camelCase", "choices": ["camelCase", "PascalCase", "snake_case", "kebab-case", "spaces in between"]}]
}`

// withTaxonomy is the local API with the taxonomy plugin beside the seeded
// ones.
func withTaxonomy() localapi.Options {
	var p localapi.Plugin
	if err := json.Unmarshal([]byte(taxonomyPlugin), &p); err != nil {
		panic(err)
	}
	return localapi.Options{Plugins: append(localapi.DefaultPlugins(), p)}
}

// postHogScenarios are the scenarios the stand-in and the official
// provider are compared on.
func postHogScenarios() []scenario {
	return []scenario{templateScenario(), ownCodeScenario(), existingScenario(), hiddenTemplateScenario()}
}

// taxonomyFunction is a posthog_hog_function from the taxonomy template
// with the attributes body gives.
func taxonomyFunction(body string) string {
	return `
resource "posthog_hog_function" "taxonomy" {
  type        = "transformation"
  template_id = "plugin-taxonomy-plugin"
` + body + `}
`
}

// taxonomyNamed is taxonomyFunction with a name, a description, the
// template's one input and filters as jsonencode writes them, and extra.
func taxonomyNamed(extra string) string {
	return taxonomyFunction(`
  name         = "Taxonomy"
  description  = "Event names in snake_case."
  inputs_json  = jsonencode({ defaultNamingConvention = { value = "snake_case" } })
  filters_json = jsonencode({ events = [{ id = "$pageview", name = "$pageview", type = "events" }] })
` + extra)
}

// templateScenario: a function from a template, as the guide writes one:
// with nothing but the template, then with an input the template does not
// declare, filters written by hand, filters as jsonencode writes them, an
// update, and imports by an import block and by id.
func templateScenario() scenario {
	state := func(o observed, attr string) string {
		var s string
		_ = json.Unmarshal(o.State["posthog_hog_function.taxonomy"][attr], &s)
		return s
	}
	return scenario{name: "template", options: withTaxonomy(), steps: []scenarioStep{
		{name: "the template alone", config: taxonomyFunction("")},
		{name: "an input the template does not declare", config: taxonomyFunction(`
  name         = "Taxonomy"
  description  = "Event names in snake_case."
  inputs_json  = jsonencode({ defaultNamingConvention = { value = "snake_case" }, dropped = { value = "x" } })
  filters_json = jsonencode({ events = [{ id = "$pageview", name = "$pageview", type = "events" }] })
`)},
		{name: "filters written by hand", config: taxonomyFunction(`
  name         = "Taxonomy"
  description  = "Event names in snake_case."
  inputs_json  = jsonencode({ defaultNamingConvention = { value = "snake_case" } })
  filters_json = <<-EOT
    { "events": [ { "type": "events", "id": "$pageview", "name": "$pageview" } ] }
  EOT
`)},
		{name: "filters as jsonencode writes them", config: taxonomyNamed(""), check: func(t *testing.T, o observed, _ *localapi.Server) {
			wantNoErrors(t, o)
			if len(o.Plan) != 0 {
				t.Errorf("step %q: the next plan has %q, want none", o.Step, o.Plan)
			}
		}},
		{name: "an update", config: taxonomyNamed(`
  enabled         = true
  execution_order = 3
`), check: func(t *testing.T, o observed, local *localapi.Server) {
			wantNoErrors(t, o)
			if o.Requests["hog_function_update"] != 1 || o.Requests["hog_function_create"] != 0 {
				t.Errorf("step %q: requests %v, want one PATCH", o.Step, o.Requests)
			}
			if hf := liveHogFunction(t, local); !hf.Enabled || hf.ExecutionOrder == nil || *hf.ExecutionOrder != 3 {
				t.Errorf("step %q: the service holds %s enabled=%v at order %v, want it enabled at order 3", o.Step, hf.ID, hf.Enabled, hf.ExecutionOrder)
			}
		}},
		{name: "imported by an import block", config: `
import {
  to = posthog_hog_function.taxonomy
  id = "1/<live>"
}
` + taxonomyNamed(`
  enabled         = true
  execution_order = 3
`), commands: [][]string{{"state", "rm", "-no-color", "posthog_hog_function.taxonomy"}, applyCommand},
			check: func(t *testing.T, o observed, _ *localapi.Server) {
				if state(o, "template_id") != "plugin-taxonomy-plugin" || state(o, "project_id") != "1" {
					t.Errorf("step %q: imported template_id %q, project_id %q", o.Step, state(o, "template_id"), state(o, "project_id"))
				}
			}},
		{name: "imported by id alone", config: taxonomyNamed(`
  enabled         = true
  execution_order = 3
`), commands: [][]string{
			{"state", "rm", "-no-color", "posthog_hog_function.taxonomy"},
			{"import", "-no-color", "posthog_hog_function.taxonomy", "<live>"},
		}, check: func(t *testing.T, o observed, _ *localapi.Server) {
			if o.Requests["hog_function_update"]+o.Requests["hog_function_create"] != 0 {
				t.Errorf("step %q: requests %v, want reads only", o.Step, o.Requests)
			}
			if state(o, "id") == "" || state(o, "project_id") != "1" {
				t.Errorf("step %q: imported id %q, project_id %q", o.Step, state(o, "id"), state(o, "project_id"))
			}
		}},
		{name: "applied after the import", config: taxonomyNamed(`
  enabled         = true
  execution_order = 3
`)},
		{name: "destroyed", config: taxonomyNamed(""), commands: [][]string{{"destroy", "-auto-approve", "-no-color"}},
			check: func(t *testing.T, o observed, local *localapi.Server) {
				if o.Requests["hog_function_update"] != 1 || o.Requests["hog_function_delete"] != 0 {
					t.Errorf("step %q: requests %v, want one PATCH and no DELETE", o.Step, o.Requests)
				}
				for _, hf := range local.HogFunctions() {
					if !hf.Deleted {
						t.Errorf("step %q: %s is not deleted", o.Step, hf.ID)
					}
				}
				for addr := range o.State {
					t.Errorf("step %q: the state still holds %s", o.Step, addr)
				}
			}},
	}}
}

// webhook is a posthog_hog_function of its own code, with its own inputs
// schema, a secret input given in a variable of value token, and extra.
func webhook(token, extra string) string {
	return `
variable "token" {
  type      = string
  sensitive = true
  default   = "` + token + `"
}

resource "posthog_hog_function" "webhook" {
  name    = "Webhook"
  type    = "destination"
  enabled = true
  hog     = <<-EOT
    fetch(inputs.url, {'headers': {'Authorization': concat('Bearer ', inputs.token)}})
  EOT
  inputs_schema_json = jsonencode([
    { key = "url", type = "string", label = "URL", required = true, secret = false },
    { key = "token", type = "string", label = "Token", required = false, secret = true },
    { key = "note", type = "string", label = "Note", required = false, secret = false },
  ])
  inputs_json           = jsonencode({ url = { value = "https://example.com/hook" } })
  sensitive_inputs_json = jsonencode({ token = { value = var.token } })
  filters_json          = jsonencode({ events = [{ id = "$pageview", type = "events" }] })
` + extra + `}
`
}

// ownCodeScenario: a function of its own code with a secret input (and
// one input it leaves out): its create, a new secret, a description given
// and removed, masking and mappings, an import by id, its project given as
// the provider's, then another project, then removed from the
// configuration.
func ownCodeScenario() scenario {
	secretOnService := func(t *testing.T, o observed, local *localapi.Server, want string) {
		t.Helper()
		var inputs map[string]struct {
			Value any `json:"value"`
		}
		hf := liveHogFunction(t, local)
		if err := json.Unmarshal(hf.Inputs, &inputs); err != nil || inputs["token"].Value != want {
			t.Errorf("step %q: the service's inputs %s, want the token %q", o.Step, hf.Inputs, want)
		}
	}
	return scenario{name: "own code", options: withTaxonomy(), steps: []scenarioStep{
		{name: "a secret input", config: webhook("t0k3n-1", ""), check: func(t *testing.T, o observed, local *localapi.Server) {
			secretOnService(t, o, local, "t0k3n-1")
		}},
		{name: "a new secret", config: webhook("t0k3n-2", ""), check: func(t *testing.T, o observed, local *localapi.Server) {
			secretOnService(t, o, local, "t0k3n-2")
		}},
		{name: "a description", config: webhook("t0k3n-2", `  description = "Sends each pageview on."
`)},
		{name: "the description removed", config: webhook("t0k3n-2", ""), check: func(t *testing.T, o observed, local *localapi.Server) {
			if hf := liveHogFunction(t, local); hf.Description != "" {
				t.Errorf("step %q: the service's description is %q, want it cleared", o.Step, hf.Description)
			}
		}},
		{name: "masking and mappings", config: webhook("t0k3n-2", `  masking_json  = jsonencode({ ttl = 3600, threshold = 1, hash = "{person.id}" })
  mappings_json = jsonencode([{ name = "Pageviews", inputs = { url = { value = "https://example.com/pageviews" } } }])
`)},
		{name: "imported by id", config: webhook("t0k3n-2", ""), commands: [][]string{
			{"state", "rm", "-no-color", "posthog_hog_function.webhook"},
			{"import", "-no-color", "posthog_hog_function.webhook", "<live>"},
		}},
		{name: "applied after the import", config: webhook("t0k3n-2", ""), check: func(t *testing.T, o observed, local *localapi.Server) {
			secretOnService(t, o, local, "t0k3n-2")
		}},
		{name: "the provider's project named", config: webhook("t0k3n-2", `  project_id = "1"
`)},
		{name: "another project", config: webhook("t0k3n-2", `  project_id = "2"
`), check: func(t *testing.T, o observed, local *localapi.Server) {
			if hf := liveHogFunction(t, local); hf.Project != 2 {
				t.Errorf("step %q: the function is in project %d, want 2", o.Step, hf.Project)
			}
		}},
		{name: "removed from the configuration", config: ""},
	}}
}

// existingScenario: a function the service made before Terraform knew it
// (as PostHog's own migration makes them), imported with the guide's import
// block, first configured without filters, then with the filters the
// service keeps.
func existingScenario() scenario {
	imported := `
import {
  to = posthog_hog_function.taxonomy
  id = "1/<hog 1>"
}
`
	return scenario{name: "existing", options: withTaxonomy(), before: func(t *testing.T, host string) {
		postHogFunction(t, host, map[string]any{"type": "transformation", "template_id": "plugin-taxonomy-plugin", "enabled": true,
			"execution_order": 1, "inputs": map[string]any{"defaultNamingConvention": map[string]any{"value": "PascalCase"}}})
	}, steps: []scenarioStep{
		{name: "imported without filters", config: imported + taxonomyFunction(`
  name            = "Taxonomy"
  enabled         = true
  execution_order = 1
  inputs_json     = jsonencode({ defaultNamingConvention = { value = "PascalCase" } })
`)},
		{name: "the service's filters", config: taxonomyFunction(`
  name            = "Taxonomy"
  enabled         = true
  execution_order = 1
  inputs_json     = jsonencode({ defaultNamingConvention = { value = "PascalCase" } })
  filters_json    = jsonencode({ source = "events" })
`)},
	}}
}

// hiddenTemplateScenario: a function from GeoIP's template, which PostHog
// keeps hidden, and whose newest versions refuse to create from it.
func hiddenTemplateScenario() scenario {
	return scenario{name: "hidden template", options: withTaxonomy(), steps: []scenarioStep{
		{name: "created from GeoIP's template", config: `
resource "posthog_hog_function" "geoip" {
  name         = "GeoIP"
  description  = "Enrich events with location data."
  type         = "transformation"
  template_id  = "plugin-posthog-plugin-geoip"
  filters_json = jsonencode({ source = "events" })
}
`},
	}}
}

// postHogFunction makes a hog function through the service's API, as
// PostHog's own tools would.
func postHogFunction(t *testing.T, host string, body map[string]any) {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, host+"/api/projects/1/hog_functions/", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+localapi.KeyOrg)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("creating a hog function: %s", resp.Status)
	}
}

// liveHogFunction is the one hog function the service shows.
func liveHogFunction(t *testing.T, local *localapi.Server) localapi.HogFunction {
	t.Helper()
	var live []localapi.HogFunction
	for _, hf := range local.HogFunctions() {
		if !hf.Deleted {
			live = append(live, hf)
		}
	}
	if len(live) != 1 {
		t.Fatalf("the service shows %d hog functions, want 1", len(live))
	}
	return live[0]
}
