package acceptance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// TestAccReliability_clientRateLimit: an apply of more creates than the
// service allows per minute sees no 429 at all when requests_per_minute is
// under the service's limit: the provider waits instead, and says so in
// the log. (A minute's limit cannot be exceeded in less than a minute, so
// this test takes a little over one.)
func TestAccReliability_clientRateLimit(t *testing.T) {
	t.Parallel()
	const serviceLimit, providerLimit = 60, 59
	const configs = serviceLimit + 2
	host, local := acctest.IsolatedAPI(t, nil)
	local.SetRateLimit(serviceLimit)

	tf := acctest.NewTerraform(t, fmt.Sprintf(`provider "pipeline" {
  host                = %q
  api_key             = %q
  project_id          = "1"
  requests_per_minute = %d
  max_retries         = 0 # a 429 would fail the apply
}

resource "pipeline_transformation_config" "many" {
  count  = %d
  plugin = 1
  name   = "config ${count.index}"
}
`, host, acctest.KeyWrite, providerLimit, configs), nil)

	log := filepath.Join(t.TempDir(), "terraform.log")
	out, err := tf.RunEnv([]string{"TF_LOG=INFO", "TF_LOG_PATH=" + log}, "apply", "-auto-approve", "-no-color")
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	c := local.Counters()
	if c["throttled"] != 0 {
		t.Errorf("the service throttled %d requests, want none", c["throttled"])
	}
	if c["create"] != configs || len(activeIDs(t, host)) != configs {
		t.Errorf("%d creates, %d active configs; want %d", c["create"], len(activeIDs(t, host)), configs)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	waits := regexp.MustCompile(`rate limit: waiting [0-9.]+m?s before POST /api/projects/1/pipeline_transformation_configs/`).FindAll(b, -1)
	if len(waits) == 0 {
		t.Errorf("no rate-limit wait in the log")
	}
	t.Logf("%d requests, %d rate-limit waits logged", c["total"], len(waits))
}
