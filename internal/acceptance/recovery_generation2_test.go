package acceptance

import (
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccRecovery_generation2CreateNotSentAgain (issue 34, case 3): in a
// project without configs at generation 2 (2025: a create makes a hog
// function and stores no config), nothing tells the plan that creates no
// longer work, so the first apply sends the create, which makes a hog
// function. The second and third applies refuse the create at plan time,
// naming what happened and how to send creates again: one hog function in
// all, where each apply used to make another.
func TestAccRecovery_generation2CreateNotSentAgain(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPI(t, nil)
	if err := local.SetGeneration(localapi.Generation2); err != nil {
		t.Fatal(err)
	}
	tf := acctest.NewTerraform(t, recoveryProvider(host)+`
resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  enabled = true
}
`, nil)
	for i, want := range []string{
		"The service made a hog function instead of a transformation config",
		"The service no longer creates transformation configs",
		"The service no longer creates transformation configs",
	} {
		local.ResetCounters()
		out, err := tf.Run("apply", "-auto-approve", "-no-color")
		if err == nil {
			t.Fatalf("apply %d succeeded:\n%s", i+1, out)
		}
		flat := strings.Join(strings.Fields(out), " ")
		if !strings.Contains(flat, "Error: "+want) {
			t.Errorf("apply %d does not say %q:\n%s", i+1, want, out)
		}
		if i > 0 {
			for _, also := range []string{"was answered 201 Created without a stored config", "so nothing was sent",
				"pipeline-provider/creates/"} {
				if !strings.Contains(flat, also) {
					t.Errorf("apply %d does not say %q:\n%s", i+1, also, out)
				}
			}
			if n := local.Counters()["create"]; n != 0 {
				t.Errorf("apply %d sent %d creates, want none", i+1, n)
			}
		}
	}
	if made := local.HogFunctions(); len(made) != 1 {
		t.Errorf("%d hog functions after three applies, want 1: %+v", len(made), made)
	}
}
