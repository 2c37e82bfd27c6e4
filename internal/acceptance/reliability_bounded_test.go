package acceptance

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccReliability_boundedReads (issue 24, case 9): reads of a service
// that answers without end stop, with an error that says why. The list
// data source against pages that never end fails at the budget of one
// listing, having asked for no more pages than it allows, long before the
// read's time limit; an oversized answer is read once, not once per retry.
// The provider's memory is so bounded by the budget: it never holds more
// than its pages.
func TestAccReliability_boundedReads(t *testing.T) {
	t.Parallel()
	plan := func(t *testing.T, faults localapi.Faults) (string, map[string]int64) {
		t.Helper()
		host, local := acctest.IsolatedAPI(t, nil)
		local.SetFaults(faults)
		tf := acctest.NewTerraform(t, fmt.Sprintf(`provider "pipeline" {
  host       = %q
  api_key    = %q
  project_id = "1"
}

data "pipeline_transformation_configs" "all" {}
`, host, acctest.KeyWrite), nil)
		// Far less than the read's time limit (5 minutes): a run still
		// listing by then would list for ever.
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		out, err := tf.Command(ctx, nil, "plan", "-no-color").CombinedOutput()
		if ctx.Err() != nil {
			t.Fatalf("the plan was still reading after 2 minutes, with %d list requests:\n%s", local.Counters()["list"], out)
		}
		if err == nil {
			t.Fatalf("the plan succeeded against a service that answers without end:\n%s", out)
		}
		return strings.Join(strings.Fields(string(out)), " "), local.Counters()
	}

	t.Run("pages that never end", func(t *testing.T) {
		t.Parallel()
		out, c := plan(t, localapi.Faults{EndlessPages: true})
		if !strings.Contains(out, "stopped at the budget of one listing (200 pages or 64 MiB) after 200 pages") {
			t.Errorf("the error does not name the budget:\n%s", out)
		}
		if c["list"] != 200 {
			t.Errorf("%d pages asked for, want the budget's 200", c["list"])
		}
	})
	t.Run("an oversized answer", func(t *testing.T) {
		t.Parallel()
		out, c := plan(t, localapi.Faults{PagePadding: 80 << 20})
		if !strings.Contains(out, "the answer is larger than 16 MiB") || !strings.Contains(out, "not retried") {
			t.Errorf("the error does not name the cap:\n%s", out)
		}
		if c["list"] != 1 {
			t.Errorf("the answer was asked for %d times, want once", c["list"])
		}
	})
}
