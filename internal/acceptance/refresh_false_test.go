package acceptance

import (
	"context"
	"fmt"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// orderedConfigs are two configs that leave order to an order resource.
func orderedConfigs(host, nameA string) string {
	return recoveryProvider(host) + fmt.Sprintf(`
resource "pipeline_transformation_config" "a" {
  plugin  = 1
  name    = %q
  enabled = true
}

resource "pipeline_transformation_config" "b" {
  plugin  = 2
  name    = "b"
  enabled = true
}

resource "pipeline_transformation_order" "all" {
  config_ids = [pipeline_transformation_config.b.id, pipeline_transformation_config.a.id]
}
`, nameA)
}

// TestAccRefreshFalse_orderLeftOut: configs whose order an order resource
// sets are changed by an apply without refresh: the apply keeps what the
// plan said (the order Terraform last saw) instead of failing with an
// inconsistent result, changes on the service only what it planned, and the
// next plan, with a refresh, is empty (issue 24, case 5).
func TestAccRefreshFalse_orderLeftOut(t *testing.T) {
	t.Parallel()
	host, _ := acctest.IsolatedAPI(t, nil)
	tf := acctest.NewTerraform(t, orderedConfigs(host, "a"), nil)
	mustApply(t, tf)
	id := tf.StateIDs()["pipeline_transformation_config.a"]

	tf.WriteConfig(orderedConfigs(host, "a renamed"))
	mustApply(t, tf, "-refresh=false")
	rec, err := acctest.ClientFor(t, host, localapi.KeyFull).Get(context.Background(), "1", client.Transformations, id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Name == nil || *rec.Name != "a renamed" || rec.Order != 2 {
		t.Errorf("config a is named %v with order %d, want \"a renamed\" at order 2", rec.Name, rec.Order)
	}
	tf.EmptyPlan("after the apply without refresh")
}
