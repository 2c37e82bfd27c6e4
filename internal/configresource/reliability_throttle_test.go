package configresource_test

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// TestAccReliability_throttledPastTimeLimit: when the service throttles the
// key for longer than an operation may wait (its hourly limit answers with
// a Retry-After of up to an hour, the default create timeout is 10
// minutes), the creates fail at once instead of waiting for their time
// limit, and the error names the wait and what to do. Once the limit
// clears, the next apply creates the rest, none twice.
func TestAccReliability_throttledPastTimeLimit(t *testing.T) {
	t.Parallel()
	const hourLimit, configs = 2, 4
	host, local := acctest.IsolatedAPI(t, nil)
	config := fmt.Sprintf(`provider "pipeline" {
  host       = %q
  api_key    = %q
  project_id = "1"
}

resource "pipeline_transformation_config" "t" {
  count  = %d
  plugin = 1
  name   = "transformation ${count.index}"
}

resource "pipeline_import_app_config" "i" {
  count  = %d
  plugin = 3
  name   = "import ${count.index}"
}
`, host, acctest.KeyWrite, configs/2, configs/2)
	var start time.Time

	resource.Test(t, resource.TestCase{ // t is parallel already
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					local.SetHourlyRateLimit(hourLimit)
					start = time.Now()
				},
				Config: config,
				ExpectError: regexp.MustCompile(`(?s)throttles\s+this\s+API\s+key\s+\(429.*accepts\s+requests\s+again\s+in\s+(59m5\ds|1h0m0s),` +
					`.*time\s+limit\s+\(\d+m\d+s\s+left\).*Run\s+again\s+after.*timeouts`),
			},
			{
				PreConfig: func() {
					// Failing at once is the behaviour under test, not a
					// speed: waiting would have taken the 10-minute limit.
					if el := time.Since(start); el > 2*time.Minute {
						t.Errorf("the throttled apply took %s: it waited instead of failing at once", el)
					}
					c := local.Counters()
					if c["throttled"] == 0 || c["create"] > configs {
						t.Errorf("%d creates sent, %d throttled: want each create sent at most once, some throttled", c["create"], c["throttled"])
					}
					local.SetHourlyRateLimit(0)
				},
				Config: config,
				Check:  acctest.CheckStateMatchesAPI(acctest.ClientFor(t, host, acctest.KeyFull), configs),
			},
		},
	})
}
