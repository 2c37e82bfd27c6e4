package configresource_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// faultyConfigs are 100 configs of both kinds: named ones with varied
// settings, and groups of identical ones (the hardest case for finding the
// config a create with a lost answer made).
const faultyConfigs = `
resource "pipeline_transformation_config" "named" {
  count   = 40
  plugin  = 1 + count.index % 2
  name    = "transformation ${count.index}"
  order   = count.index
  enabled = count.index % 3 == 0
  filters = count.index % 4 == 0 ? jsonencode({ events = [{ type = "events", id = "$pageview" }] }) : null
}

resource "pipeline_transformation_config" "same" {
  count  = 10
  plugin = 1
}

resource "pipeline_import_app_config" "named" {
  count       = 40
  plugin      = 3 + count.index % 2
  name        = "import ${count.index}"
  description = "imports, part ${count.index}"
  enabled     = count.index % 2 == 0
}

resource "pipeline_import_app_config" "same" {
  count   = 10
  plugin  = 4
  enabled = true
}
`

// TestAccReliability_faults: against a service that answers 10% of
// requests 502 or 503 and 10% 429 (with Retry-After), and on top loses the
// answer of 5% of the reads and updates after it handled them (a 502, a
// 504 or a reset), one apply of 100 configs of both kinds converges: the
// API then holds exactly the 100 configs in the state (no duplicate, no
// orphan), the next plan is empty, and destroy leaves none active. (A
// create whose answer is lost after the service stored it is an error
// that names the config: TestConfigResource_createAnswerLost.)
func TestAccReliability_faults(t *testing.T) {
	t.Parallel()
	seed := rand.Uint64()
	t.Logf("fault seed %d", seed)
	losses := localapitest.RandomLoss(0.05, seed, http.MethodGet, http.MethodPatch)
	host, local := acctest.IsolatedAPI(t, func(h http.Handler) http.Handler {
		return localapitest.LoseAnswers(h, losses.Decide)
	})
	local.SetFaults(localapi.Faults{Rate502: 0.05, Rate503: 0.05, Rate429: 0.10, Seed: seed})

	// The API's own view, through the same faults (reads retry safely).
	api, err := client.New(client.Config{Host: host, APIKey: acctest.KeyFull, MaxRetries: 15,
		RetryWaitMin: 10e6, RetryWaitMax: 2e9})
	if err != nil {
		t.Fatal(err)
	}

	// Retries enough for a 15% rate of 5xx and resets (429s are retried
	// until the deadline anyway). retry_wait_max caps their backoff, so
	// that the run stays short; each 429 still pauses every request for its
	// Retry-After of 1s.
	provider := fmt.Sprintf(`provider "pipeline" {
  host           = %q
  api_key        = %q
  project_id     = "1"
  max_retries    = 12
  retry_wait_max = "250ms"
  # This service has no rate limit; the client's own would only slow the run.
  requests_per_minute = 0
}
`, host, acctest.KeyWrite)

	resource.Test(t, resource.TestCase{ // t is parallel already
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: provider + faultyConfigs,
			Check:  acctest.CheckStateMatchesAPI(api, 100),
		}},
		CheckDestroy: func(*terraform.State) error {
			onAPI, err := acctest.ActiveConfigs(api)
			if err != nil {
				return err
			}
			if len(onAPI) != 0 {
				return fmt.Errorf("configs still active after destroy: %v", slices.Sorted(maps.Keys(onAPI)))
			}
			return nil
		},
	})

	c := local.Counters()
	t.Logf("requests %d: 429 %d, 502 %d, 503 %d before the service; %d answers lost after it",
		c["total"], c["fault_429"], c["fault_502"], c["fault_503"], losses.Lost())
	if !t.Failed() && (c["fault_429"] == 0 || c["fault_502"] == 0 || c["fault_503"] == 0 || losses.Lost() == 0) {
		t.Error("some kind of fault never happened: the run proves less than it claims")
	}
}
