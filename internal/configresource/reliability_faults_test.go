package configresource_test

import (
	"context"
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
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
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
// requests 502 or 503, 10% 429 (with Retry-After), resets 5% of
// connections, and on top loses the answer of 5% of the writes after it
// stored them, one apply of 100 configs of both kinds converges: the API
// then holds exactly the 100 configs in the state (no duplicate, no
// orphan), the next plan is empty, and destroy leaves none active.
func TestAccReliability_faults(t *testing.T) {
	t.Parallel()
	seed := rand.Uint64()
	t.Logf("fault seed %d", seed)
	losses := localapitest.RandomLoss(0.05, seed, http.MethodPost, http.MethodPatch)
	host, local := acctest.IsolatedAPI(t, func(h http.Handler) http.Handler {
		return localapitest.LoseAnswers(h, losses.Decide)
	})
	local.SetFaults(localapi.Faults{Rate502: 0.05, Rate503: 0.05, Rate429: 0.10, ResetRate: 0.05, Seed: seed})

	// The API's own view, through the same faults (reads retry safely).
	api, err := client.New(client.Config{Host: host, APIKey: acctest.KeyFull, MaxRetries: 15,
		RetryWaitMin: 10e6, RetryWaitMax: 2e9})
	if err != nil {
		t.Fatal(err)
	}
	active := func() (map[int64]bool, error) {
		ids := map[int64]bool{}
		for _, k := range kind.Kinds() {
			recs, err := api.ListAll(context.Background(), "1", k.Collection)
			if err != nil {
				return nil, err
			}
			for _, r := range recs {
				if !r.Deleted {
					ids[r.ID] = true
				}
			}
		}
		return ids, nil
	}

	// Retries enough for a 25% fault rate. retry_wait_max caps the waits,
	// the Retry-After of 1s included, so that the run stays short (the
	// client's tests show Retry-After honoured).
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
			Check: func(s *terraform.State) error {
				inState := map[int64]bool{}
				for _, rs := range s.RootModule().Resources {
					var id int64
					if _, err := fmt.Sscan(rs.Primary.ID, &id); err != nil {
						return fmt.Errorf("%s: id %q", rs.Type, rs.Primary.ID)
					}
					inState[id] = true
				}
				onAPI, err := active()
				if err != nil {
					return err
				}
				if len(inState) != 100 || len(onAPI) != 100 {
					return fmt.Errorf("%d configs in the state, %d active on the API; want 100 and 100", len(inState), len(onAPI))
				}
				for id := range onAPI {
					if !inState[id] {
						return fmt.Errorf("config %d is active on the API but not in the state (orphan or duplicate)", id)
					}
				}
				return nil
			},
		}},
		CheckDestroy: func(*terraform.State) error {
			onAPI, err := active()
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
	t.Logf("requests %d: 429 %d, 502 %d, 503 %d, resets %d before the service; %d answers lost after it",
		c["total"], c["fault_429"], c["fault_502"], c["fault_503"], c["fault_reset"], losses.Lost())
	if !t.Failed() && (c["fault_429"] == 0 || c["fault_502"] == 0 || c["fault_503"] == 0 || c["fault_reset"] == 0 || losses.Lost() == 0) {
		t.Error("some kind of fault never happened: the run proves less than it claims")
	}
}
