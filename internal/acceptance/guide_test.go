package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// guideStep returns the configuration of one step of the guide "Moving to
// hog functions", as the guide shows it (examples/guides/...).
func guideStep(t *testing.T, step string) string {
	t.Helper()
	return guideFile(t, "moving-to-hog-functions", step, "main.tf")
}

// guideFile returns a file of a guide's examples (examples/guides/GUIDE/...).
func guideFile(t *testing.T, guide string, path ...string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(append([]string{filepath.Dir(file), "..", "..", "examples", "guides", guide}, path...)...))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAccGuide_migrateAction runs the guide's way for a browser session
// on a self-hosted instance older than March 2026 (a legacy key may call
// migrate there), step by step, with its own files, through the terraform
// binary: configs managed under generation 1, the service moved to
// generation 2, migrate-1 migrates them (one hog function made of each
// config, the configs disabled, the ids in the outputs), migrate-2 takes
// configs and migrations out of Terraform without destroying anything, and
// the next plan is empty. migrate-3, importing the hog functions into the
// official PostHog provider, is checked for what it needs: the ids the
// outputs gave are the hog functions the service holds.
func TestAccGuide_migrateAction(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPI(t, nil)
	provider := acctest.ProviderBlock(host, localapi.KeyFull, "1")
	tf := acctest.NewTerraform(t, provider+guideStep(t, "migrate-0"), nil)
	apply := func(step string) string {
		t.Helper()
		out, err := tf.Run("apply", "-auto-approve", "-no-color")
		if err != nil {
			t.Fatalf("%s: apply: %v\n%s", step, err, out)
		}
		return out
	}

	apply("before")
	configs := tf.StateIDs()
	ids := map[string]int64{
		"geoip": configs["pipeline_transformation_config.geoip"],
		"s3":    configs["pipeline_import_app_config.s3"],
	}
	colls := map[string]client.Collection{"geoip": client.Transformations, "s3": client.ImportApps}
	if err := local.SetGeneration(localapi.Generation2); err != nil {
		t.Fatal(err)
	}
	tf.EmptyPlan("generation 2")

	// Step 1: migrate.
	tf.WriteConfig(provider + guideStep(t, "migrate-1"))
	apply("step 1")
	made := local.HogFunctions()
	if len(made) != 2 {
		t.Fatalf("step 1 made %d hog functions, want one per config: %+v", len(made), made)
	}
	bySource := map[int64]localapi.HogFunction{}
	for _, hf := range made {
		if hf.SourceConfigID != nil {
			bySource[*hf.SourceConfigID] = hf
		}
	}
	out, err := tf.Run("output", "-json", "hog_function_ids")
	if err != nil {
		t.Fatalf("output: %v\n%s", err, out)
	}
	var outputs map[string]string
	if err := json.Unmarshal([]byte(out), &outputs); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	for name, id := range ids {
		hf, ok := bySource[id]
		if !ok || !hf.Enabled {
			t.Errorf("%s: no enabled hog function made of config %d: %+v", name, id, made)
		}
		// What step 3 imports: "<project_id>/<id>" with this id.
		if outputs[name] != hf.ID {
			t.Errorf("output %s = %q, but the hog function made of config %d is %q", name, outputs[name], id, hf.ID)
		}
	}

	// Step 2: out of Terraform, nothing destroyed.
	tf.WriteConfig(provider + guideStep(t, "migrate-2"))
	local.ResetCounters()
	out = apply("step 2")
	// The apply's summary, "Resources: 0 added, 0 changed, 0 destroyed."
	// (OpenTofu may add more counts); \b0 keeps "10 destroyed" out.
	if !regexp.MustCompile(`Resources: .*\b0 destroyed\b`).MatchString(out) {
		t.Errorf("step 2 destroyed something, or printed no summary:\n%s", out)
	}
	if c := local.Counters(); c["update"]+c["delete"]+c["migrate"]+c["create"] != 0 {
		t.Errorf("step 2 wrote to the service: %v", c)
	}
	if left := tf.StateIDs(); len(left) != 0 {
		t.Errorf("the state still holds %v", left)
	}
	tf.EmptyPlan("after step 2")

	api := acctest.ClientFor(t, host, localapi.KeyFull)
	for name, id := range ids {
		rec, err := api.Get(context.Background(), "1", colls[name], id)
		switch {
		case err != nil:
			t.Errorf("%s: config %d: %v", name, id, err)
		case rec.Deleted || rec.Enabled:
			t.Errorf("%s: config %d is deleted=%v enabled=%v, want kept and disabled", name, id, rec.Deleted, rec.Enabled)
		}
	}
	if n := len(local.HogFunctions()); n != 2 {
		t.Errorf("%d hog functions in the end, want the 2 of step 1", n)
	}

	// Step 3's file names the official provider's resources as the guide
	// says: one import per hog function, "<project_id>/<id>".
	step3 := guideStep(t, "migrate-3")
	// "<project_id>/<id>" import IDs need v1.0.2 of the official provider.
	if !strings.Contains(step3, `version = ">= 1.0.2"`) {
		t.Error(`step 3 imports by "<project_id>/<id>" without requiring the official provider's v1.0.2`)
	}
	for _, name := range []string{"geoip", "s3"} {
		if !strings.Contains(step3, fmt.Sprintf("to = posthog_hog_function.%s\n  id = \"", name)) {
			t.Errorf("step 3 does not import posthog_hog_function.%s by id", name)
		}
	}
}
