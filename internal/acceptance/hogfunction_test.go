package acceptance

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// postHogEnv is the environment both providers read: the local API at
// host, KeyOrg (plugin and hog function scopes), project 1.
func postHogEnv(host string) map[string]string {
	return map[string]string{"POSTHOG_HOST": host, "POSTHOG_API_KEY": localapi.KeyOrg, "POSTHOG_PROJECT_ID": "1"}
}

// geoIPHogFunction is a posthog_hog_function from GeoIP's template with
// its locale as an input, its API key a secret input, and execution_order.
func geoIPHogFunction(locale string, order int) string {
	return fmt.Sprintf(`
variable "geoip_api_key" {
  type      = string
  sensitive = true
  default   = "s3cr3t"
}

resource "posthog_hog_function" "geoip" {
  name                  = "GeoIP"
  description           = "Enrich events with location data."
  type                  = "transformation"
  template_id           = "plugin-posthog-plugin-geoip"
  enabled               = true
  execution_order       = %d
  inputs_json           = jsonencode({ locale = { value = %q } })
  sensitive_inputs_json = jsonencode({ api_key = { value = var.geoip_api_key } })
}
`, order, locale)
}

// TestAccHogFunction_standIn drives the stand-in of the official
// posthog_hog_function through the terraform binary against the local
// API's hog function routes: a create from a template with inputs (one
// secret), an update of its inputs and execution_order, an import by id,
// and a destroy, which only marks the function deleted; the store is
// checked after each step, and each step's next plan is empty.
func TestAccHogFunction_standIn(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPI(t, nil)
	tf := acctest.NewTerraformWith(t, geoIPHogFunction("en", 1), withOfficialPostHog(t, acctest.TerraformSetup{Env: postHogEnv(host)}))
	apply := func(step string) {
		t.Helper()
		if out, err := tf.Run("apply", "-auto-approve", "-no-color"); err != nil {
			t.Fatalf("%s: apply: %v\n%s", step, err, out)
		}
	}
	stored := func(step string) localapi.HogFunction {
		t.Helper()
		hfs := local.HogFunctions()
		if len(hfs) != 1 {
			t.Fatalf("%s: %d hog functions on the service, want 1: %+v", step, len(hfs), hfs)
		}
		return hfs[0]
	}
	check := func(step string, hf localapi.HogFunction, inputs string, order int64) {
		t.Helper()
		if hf.Project != 1 || hf.TemplateID != "plugin-posthog-plugin-geoip" || hf.Type != "transformation" || !hf.Enabled ||
			hf.Name != "GeoIP" || hf.Description != "Enrich events with location data." || hf.Deleted ||
			hf.ExecutionOrder == nil || *hf.ExecutionOrder != order || string(hf.Inputs) != inputs {
			t.Errorf("%s: hog function %+v, inputs %s; want order %d, inputs %s", step, hf, hf.Inputs, order, inputs)
		}
	}

	// Create.
	apply("create")
	hf := stored("create")
	check("create", hf, `{"api_key":{"value":"s3cr3t","order":0},"locale":{"value":"en","order":1}}`, 1)
	state := tf.State()["posthog_hog_function.geoip"]
	if id := attr(t, state, "id"); id != hf.ID {
		t.Errorf("state id %q, want %q", id, hf.ID)
	}
	tf.EmptyPlan("after create")

	// Update: inputs and execution_order, in one PATCH; the secret stays.
	tf.WriteConfig(geoIPHogFunction("de", 5))
	local.ResetCounters()
	apply("update")
	if c := local.Counters(); c["hog_function_update"] != 1 || c["hog_function_create"] != 0 {
		t.Errorf("update: requests %v, want one PATCH", c)
	}
	updated := stored("update")
	check("update", updated, `{"api_key":{"value":"s3cr3t","order":0},"locale":{"value":"de","order":1}}`, 5)
	if updated.ID != hf.ID {
		t.Errorf("update replaced the function: %s, was %s", updated.ID, hf.ID)
	}
	tf.EmptyPlan("after update")

	// Import by id into a state without it: the service's inputs, the
	// secret masked, the template's id; the next apply enters the secret
	// again and nothing is left to change.
	if out, err := tf.Run("state", "rm", "-no-color", "posthog_hog_function.geoip"); err != nil {
		t.Fatalf("state rm: %v\n%s", err, out)
	}
	local.ResetCounters()
	if out, err := tf.Run("import", "-no-color", "posthog_hog_function.geoip", hf.ID); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	if c := local.Counters(); c["hog_function_retrieve"] == 0 || c["hog_function_update"]+c["hog_function_create"] != 0 {
		t.Errorf("import: requests %v, want reads only", c)
	}
	imported := tf.State()["posthog_hog_function.geoip"]
	for name, want := range map[string]string{"id": hf.ID, "template_id": "plugin-posthog-plugin-geoip", "type": "transformation", "name": "GeoIP"} {
		if got := attr(t, imported, name); got != want {
			t.Errorf("imported %s = %q, want %q", name, got, want)
		}
	}
	var inputs map[string]any
	if err := json.Unmarshal([]byte(attr(t, imported, "inputs_json")), &inputs); err != nil ||
		fmt.Sprint(inputs) != "map[api_key:map[secret:true] locale:map[value:de]]" {
		t.Errorf("imported inputs_json %v (%v), want every input, the secret masked", inputs, err)
	}
	apply("after import")
	check("after import", stored("after import"), `{"api_key":{"value":"s3cr3t","order":0},"locale":{"value":"de","order":1}}`, 5)
	tf.EmptyPlan("after import")

	// Destroy: PATCH {"deleted": true}; the service keeps the function,
	// deleted, and no longer shows it.
	local.ResetCounters()
	if out, err := tf.Run("destroy", "-auto-approve", "-no-color"); err != nil {
		t.Fatalf("destroy: %v\n%s", err, out)
	}
	if c := local.Counters(); c["hog_function_update"] != 1 || c["hog_function_delete"] != 0 {
		t.Errorf("destroy: requests %v, want one PATCH and no DELETE", c)
	}
	if gone := stored("destroy"); !gone.Deleted || gone.ID != hf.ID {
		t.Errorf("destroy: %+v, want it kept and deleted", gone)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, host+"/api/projects/1/hog_functions/"+hf.ID+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+localapi.KeyOrg)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a destroyed function answers %d, want 404", resp.StatusCode)
	}
	if left := tf.State(); len(left) != 0 {
		t.Errorf("the state still holds %v", left)
	}
}

// attr reads a string attribute of a state instance ("" when null).
func attr(t *testing.T, in acctest.StateInstance, name string) string {
	t.Helper()
	var s *string
	if err := json.Unmarshal(in.Attributes[name], &s); err != nil {
		t.Fatalf("attribute %s: %v (%s)", name, err, in.Attributes[name])
	}
	if s == nil {
		return ""
	}
	return *s
}
