package acceptance

import (
	"context"
	"fmt"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccGeneration2_filtersThatFilterNothing: a config written with
// `filters = jsonencode({})` (a common module default) keeps being managed
// once the service has no filters (generation 2): a change of its name
// plans and applies, and the next plan is empty (issue 24, case 7).
func TestAccGeneration2_filtersThatFilterNothing(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPI(t, nil)
	config := func(name string) string {
		return recoveryProvider(host) + fmt.Sprintf(`
resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  name    = %q
  filters = jsonencode({})
}
`, name)
	}
	tf := acctest.NewTerraform(t, config("before"), nil)
	mustApply(t, tf)
	id := onlyID(t, tf.StateIDs())
	if err := local.SetGeneration(localapi.Generation2); err != nil {
		t.Fatal(err)
	}
	tf.EmptyPlan("at generation 2")
	tf.WriteConfig(config("after"))
	mustApply(t, tf)
	rec, err := acctest.ClientFor(t, host, localapi.KeyFull).Get(context.Background(), "1", client.Transformations, id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Name == nil || *rec.Name != "after" {
		t.Errorf("the config is named %v, want \"after\"", rec.Name)
	}
	tf.EmptyPlan("after the change at generation 2")
}
