package acceptance

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccGeneration3_apiGone: once the service no longer offers the API
// (every route of both collections answers 404), plan, apply and destroy
// fail with one clear error per construct that names the route and says
// the API is gone, nothing crashes, and the state file is left exactly as
// it was: no config is dropped from state as if deleted. The way out the
// errors advise, removed blocks with destroy = false, then works.
func TestAccGeneration3_apiGone(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPI(t, nil)
	provider := acctest.ProviderBlock(host, localapi.KeyFull, "1")
	configs := `
resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  enabled = true
}

resource "pipeline_import_app_config" "s3" {
  plugin = 3
}
`
	tf := acctest.NewTerraform(t, provider+configs, nil)
	if out, err := tf.Run("apply", "-auto-approve", "-no-color"); err != nil {
		t.Fatalf("apply at generation 1: %v\n%s", err, out)
	}
	// The order and the data source refer to no resource, so that each
	// construct is read, and fails, on its own.
	tf.WriteConfig(provider + configs + fmt.Sprintf(`
resource "pipeline_transformation_order" "all" {
  config_ids = [%d]
}

data "pipeline_import_app_configs" "all" {}
`, tf.StateIDs()["pipeline_transformation_config.geoip"]))
	if out, err := tf.Run("apply", "-auto-approve", "-no-color"); err != nil {
		t.Fatalf("apply at generation 1: %v\n%s", err, out)
	}
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	ids := tf.StateIDs()
	onAPI := configsOnAPI(t, api)
	for _, addr := range []string{"pipeline_transformation_config.geoip", "pipeline_import_app_config.s3"} {
		if _, ok := onAPI[ids[addr]]; !ok {
			t.Fatalf("%s: config %d is not active on the API (%v)", addr, ids[addr], onAPI)
		}
	}
	if err := local.SetGeneration(localapi.Generation3); err != nil {
		t.Fatal(err)
	}
	statePath := filepath.Join(tf.Dir, "terraform.tfstate")
	before, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}

	gone := regexp.MustCompile(`(GET|PATCH) (/api/projects/1/pipeline_(transformation|import_apps)_configs/\S*) answered 404 Not Found(, and so does /api/projects/1/pipeline_\w+/)?: the service no longer offers the (pipeline_\w+) API\.`)
	for _, cmd := range [][]string{
		{"plan"},
		{"apply", "-auto-approve"},
		{"destroy", "-auto-approve"},
	} {
		out, err := tf.Run(append(cmd, "-no-color")...)
		flat := strings.Join(strings.Fields(out), " ")
		if err == nil {
			t.Fatalf("%s succeeded against a service without the API:\n%s", cmd[0], out)
		}
		if strings.Contains(out, "panic") || strings.Contains(out, "crashed") {
			t.Errorf("%s: the provider crashed:\n%s", cmd[0], out)
		}
		// One error per construct: the two configs, the order, the data
		// source; each names its route and what to do.
		if n := strings.Count(flat, "Error: "); n != 4 || len(gone.FindAllString(flat, -1)) != 4 {
			t.Errorf("%s: %d errors, %d saying the API is gone, want 4 of each:\n%s", cmd[0], n, len(gone.FindAllString(flat, -1)), out)
		}
		for _, want := range []string{
			"Nothing was changed, and the state keeps what it holds.",
			"official PostHog provider (PostHog/posthog)",
			"lifecycle { destroy = false }) applied with terraform apply -refresh=false",
			`the guide "Moving to hog functions"`,
		} {
			if !strings.Contains(flat, want) {
				t.Errorf("%s: the errors do not say %q:\n%s", cmd[0], want, out)
			}
		}
		after, err := os.ReadFile(statePath)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Errorf("%s changed the state file:\nbefore %s\nafter %s", cmd[0], before, after)
		}
	}

	// What the errors advise: removed blocks, applied without a refresh
	// (OpenTofu refreshes resources it is told to forget), let them go.
	var removed strings.Builder
	for _, addr := range []string{"pipeline_transformation_config.geoip", "pipeline_import_app_config.s3", "pipeline_transformation_order.all"} {
		fmt.Fprintf(&removed, "\nremoved {\n  from = %s\n  lifecycle {\n    destroy = false\n  }\n}\n", addr)
	}
	tf.WriteConfig(provider + removed.String())
	if out, err := tf.Run("apply", "-refresh=false", "-auto-approve", "-no-color"); err != nil {
		t.Fatalf("removed blocks against a service without the API: %v\n%s", err, out)
	}
	if out, err := tf.Run("state", "list"); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("the state still holds %q (%v)", out, err)
	}
	// The configs are left on the service as they were: back at generation
	// 1, where the API can be read, nothing was deleted or changed.
	if err := local.SetGeneration(localapi.Generation1); err != nil {
		t.Fatal(err)
	}
	if after := configsOnAPI(t, api); !maps.Equal(after, onAPI) {
		t.Errorf("the configs on the API changed:\nbefore %v\nafter  %v", onAPI, after)
	}
}

// configsOnAPI returns the active configs of project 1 in both collections,
// by id, as "plugin enabled order updated_at".
func configsOnAPI(t *testing.T, api *client.Client) map[int64]string {
	t.Helper()
	out := map[int64]string{}
	for _, k := range framework.Kinds() {
		recs, err := api.ListAll(context.Background(), "1", k.Collection)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if !r.Deleted {
				out[r.ID] = fmt.Sprintf("plugin %d enabled %t order %d updated %s", r.Plugin, r.Enabled, r.Order, r.UpdatedAt)
			}
		}
	}
	return out
}
