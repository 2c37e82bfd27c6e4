package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccGuide_movingToHogFunctions runs the guide "Moving to hog
// functions" step by step, with its own files, through the terraform
// binary, with a personal API key against the service as it is today
// (every key scoped, so migrate is out of reach; the official provider is
// the test's stand-in of posthog_hog_function): the configs managed before
// (made while the service still stored configs), step 1 reads what each
// config's hog function needs into a file, step 2 writes one
// posthog_hog_function per config from it, step 3 disables the configs,
// step 4 lets them go without deleting them. Every step's next plan is
// empty, and the service holds one hog function per config with its
// inputs, order and enabled flag, every config disabled and none deleted.
func TestAccGuide_movingToHogFunctions(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPIWith(t, localapi.Options{Today: true, Generation: localapi.Generation1}, nil)
	const apiKey = "g30-k3y"
	env := postHogEnv(host)
	env["TF_VAR_geoip_api_key"] = apiKey
	step := func(files ...string) string {
		var b strings.Builder
		for _, f := range files {
			dir, name, _ := strings.Cut(f, "/")
			if name == "" {
				name = "main.tf"
			}
			b.WriteString(guideFile(t, "moving-to-hog-functions", dir, name) + "\n")
		}
		return b.String()
	}
	tf := acctest.NewTerraformWith(t, step("0-before"), withOfficialPostHog(t, acctest.TerraformSetup{Env: env}))
	apply := func(what string) string {
		t.Helper()
		out, err := tf.Run("apply", "-auto-approve", "-no-color")
		if err != nil {
			t.Fatalf("%s: apply: %v\n%s", what, err, out)
		}
		tf.EmptyPlan(what)
		return out
	}
	apply("before")
	ids := tf.StateIDs()
	geoip, currency := ids["pipeline_transformation_config.geoip"], ids["pipeline_transformation_config.currency"]
	if err := local.SetGeneration(localapi.Generation2); err != nil { // today's service
		t.Fatal(err)
	}
	tf.EmptyPlan("today's service")

	// Step 1: read, and keep in a file.
	tf.WriteConfig(step("0-before", "1-read"))
	local.ResetCounters()
	apply("step 1")
	out, err := tf.Run("output", "-json", "hog_functions")
	if err != nil {
		t.Fatalf("output: %v\n%s", err, out)
	}
	tf.WriteFile("hog_functions.json", out)
	var read map[string]struct {
		TemplateID string `json:"template_id"`
	}
	if err := json.Unmarshal([]byte(out), &read); err != nil {
		t.Fatal(err)
	}
	if len(read) != 1 || read[fmt.Sprint(geoip)].TemplateID != "plugin-posthog-plugin-geoip" {
		t.Errorf("hog_functions %s, want GeoIP's alone (the currency plugin has no template)", out)
	}
	if without, _ := tf.Run("output", "-json", "without_template"); !strings.Contains(without, fmt.Sprintf(`"%d: Currency"`, currency)) {
		t.Errorf("without_template %s does not name the currency config", without)
	}

	// Step 2: the hog functions, secrets from a variable.
	tf.WriteConfig(step("0-before", "2-hog-functions"))
	// versions.tf requires the official provider, which the test's
	// working directory already does (its stand-in, by the same address).
	if v := guideFile(t, "moving-to-hog-functions", "2-hog-functions", "versions.tf"); !strings.Contains(v, `source = "PostHog/posthog"`) {
		t.Errorf("step 2's versions.tf does not require the official provider:\n%s", v)
	}
	secrets := fmt.Sprintf(`{ "%d" = { api_key = %q } }`, geoip, apiKey)
	tf.WriteFile("secrets.auto.tfvars", "secret_inputs = "+secrets+"\n")
	apply("step 2")
	checkHogFunction(t, local, geoip, apiKey)

	// Step 3: the configs disabled; the hog functions stay as they are.
	tf.WriteConfig(step("3-disable", "2-hog-functions"))
	apply("step 3")
	checkHogFunction(t, local, geoip, apiKey)

	// Step 4: the configs let go; nothing names this provider any more.
	four := step("4-removed", "2-hog-functions")
	if regexp.MustCompile(`(?m)^(resource|data) "pipeline_`).MatchString(four) {
		t.Error("step 4 still names a resource or data source of this provider")
	}
	tf.WriteConfig(four)
	local.ResetCounters()
	out = apply("step 4")
	if !regexp.MustCompile(`Resources: .*\b0 destroyed\b`).MatchString(out) {
		t.Errorf("step 4 destroyed something:\n%s", out)
	}
	for addr := range tf.StateIDs() {
		if strings.HasPrefix(addr, "pipeline_") {
			t.Errorf("%s is still in the state", addr)
		}
	}
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	for _, id := range []int64{geoip, currency} {
		rec, err := api.Get(context.Background(), "1", client.Transformations, id)
		if err != nil || rec.Deleted || rec.Enabled {
			t.Errorf("config %d: %+v %v, want kept and disabled", id, rec, err)
		}
	}
	checkHogFunction(t, local, geoip, apiKey)
	if c := local.Counters(); c["create"]+c["migrate"] != 0 {
		t.Errorf("the steps sent creates or migrations: %v", c)
	}
}

// checkHogFunction checks that the service holds one hog function, GeoIP's,
// with config id's inputs (its secret too), order and enabled flag.
func checkHogFunction(t *testing.T, local *localapi.Server, id int64, apiKey string) {
	t.Helper()
	var live []localapi.HogFunction
	for _, hf := range local.HogFunctions() {
		if !hf.Deleted {
			live = append(live, hf)
		}
	}
	if len(live) != 1 {
		t.Fatalf("%d hog functions, want GeoIP's: %+v", len(live), live)
	}
	hf := live[0]
	var inputs map[string]struct {
		Value any `json:"value"`
	}
	_ = json.Unmarshal(hf.Inputs, &inputs)
	if hf.TemplateID != "plugin-posthog-plugin-geoip" || !hf.Enabled || hf.ExecutionOrder == nil || *hf.ExecutionOrder != 1 ||
		inputs["locale"].Value != "en" || inputs["api_key"].Value != apiKey {
		t.Errorf("the hog function of config %d is %+v (inputs %s), want GeoIP's template, enabled, order 1, locale en "+
			"and its API key", id, hf, hf.Inputs)
	}
}
