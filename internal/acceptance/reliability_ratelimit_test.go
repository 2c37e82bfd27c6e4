package acceptance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// rateLimitedConfigs are 70 configs of both kinds, nearly twice what the
// service below allows in a minute.
const rateLimitedConfigs = 70

// TestAccReliability_rateLimitConverges: against a service that allows 40
// requests a minute per key, one apply of 70 configs with the default
// settings (provider and Terraform's parallelism) succeeds: the provider
// waits when throttled, for as long as the service asks, instead of giving
// up. The API then holds exactly the 70 configs of the state, none twice,
// and the next plan, under the same limit, is empty. Every pause is logged
// once. (A minute's limit cannot be passed in less than a minute, so this
// test takes a little over one.)
func TestAccReliability_rateLimitConverges(t *testing.T) {
	t.Parallel()
	const serviceLimit = 40
	host, local := acctest.IsolatedAPI(t, nil)
	local.SetRateLimit(serviceLimit)

	tf := acctest.NewTerraform(t, fmt.Sprintf(`provider "pipeline" {
  host       = %q
  api_key    = %q
  project_id = "1"
}

resource "pipeline_transformation_config" "t" {
  count  = %d
  plugin = 1 + count.index %% 2
  name   = "transformation ${count.index}"
}

resource "pipeline_import_app_config" "i" {
  count   = %d
  plugin  = 3 + count.index %% 2
  name    = "import ${count.index}"
  enabled = true
}
`, host, acctest.KeyWrite, rateLimitedConfigs/2, rateLimitedConfigs-rateLimitedConfigs/2), nil)

	log := filepath.Join(t.TempDir(), "terraform.log")
	out, err := tf.RunEnv([]string{"TF_LOG_PROVIDER=WARN", "TF_LOG_PATH=" + log}, "apply", "-auto-approve", "-no-color")
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	c := local.Counters()
	if err := acctest.StateMatchesAPI(acctest.ClientFor(t, host, localapi.KeyFull), tf.StateIDs(), rateLimitedConfigs); err != nil {
		t.Error(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	pauses := int64(len(regexp.MustCompile(`\[WARN\].*every request of this client pauses for [0-9]+s`).FindAll(b, -1)))
	t.Logf("apply: %d requests, %d creates, %d throttled, %d pauses logged", c["total"], c["create"], c["throttled"], pauses)
	if c["throttled"] == 0 {
		t.Fatal("the service never throttled the apply: the test proves nothing")
	}
	if pauses == 0 || pauses > c["throttled"] {
		t.Errorf("%d pauses logged for %d throttled requests: want one line per pause, and every pause began with a 429", pauses, c["throttled"])
	}

	local.ResetCounters()
	tf.EmptyPlan("after the apply")
	t.Logf("plan: %d requests, %d throttled", local.Counters()["total"], local.Counters()["throttled"])
}
