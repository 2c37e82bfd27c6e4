package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// TestAccVersionB_endToEnd (issue 35): the seed's version (B, June to
// mid-August 2024) through the terraform binary, with the legacy key its
// users had: a config with filters, a job of it and an order resource over
// it and another config, in one configuration, then the order reversed.
// The service holds the filters as its serializer stores them, ran the job
// once with its payload, and runs the configs in the order the resource
// says, every other config of the project where it was; each next plan is
// empty.
func TestAccVersionB_endToEnd(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedVersionAPI(t, localapi.VersionB, nil, nil)
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	// Another config of the project, in the other collection, at order 1:
	// an order resource of transformations leaves it alone.
	other := acctest.MustCreate(t, api, client.ImportApps, enabledConfig(3, 1))
	jc := acctest.JobCases["transformation"]
	config := func(first, second string) string {
		return fmt.Sprintf(`provider "pipeline" {
  host       = %q
  api_key    = %q
  project_id = "1"
}

resource "pipeline_transformation_config" "filtered" {
  plugin  = %d
  enabled = true
  name    = "Filtered"
  filters = jsonencode({
    events = [{ id = "$pageview", type = "events", name = " Pageview ", order = "1", note = "dropped" }]
  })
}

resource "pipeline_transformation_config" "plain" {
  plugin  = 1
  enabled = true
}

resource "pipeline_transformation_job" "reprocess" {
  config_id = pipeline_transformation_config.filtered.id
  job_type  = %q
  payload   = %s
}

resource "pipeline_transformation_order" "this" {
  config_ids = [pipeline_transformation_config.%s.id, pipeline_transformation_config.%s.id]
}
`, host, localapi.KeyFull, jc.Plugin, jc.JobType, jc.Payload, first, second)
	}
	tf := acctest.NewTerraform(t, config("filtered", "plain"), nil)
	mustApply(t, tf)
	tf.EmptyPlan("after the first apply")
	ids := tf.StateIDs()
	filtered, plain := ids["pipeline_transformation_config.filtered"], ids["pipeline_transformation_config.plain"]

	rec, err := api.Get(context.Background(), "1", client.Transformations, filtered)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"events": [{"id": "$pageview", "type": "events", "name": "Pageview", "order": 1, "properties": []}]}`
	if !python.Equal(rec.Filters, json.RawMessage(want)) {
		t.Errorf("config %d holds filters %s, want %s as the service stores them", filtered, rec.Filters, want)
	}
	runs := local.Jobs()
	if len(runs) != 1 || runs[0].ConfigID != filtered || runs[0].Type != jc.JobType || !python.Equal(runs[0].Payload, json.RawMessage(jc.PayloadJSON)) {
		t.Errorf("job runs %+v, want one %q of config %d with %s", runs, jc.JobType, filtered, jc.PayloadJSON)
	}
	checkRuns(t, api, []int64{filtered, plain}, other)

	tf.WriteConfig(config("plain", "filtered"))
	mustApply(t, tf)
	tf.EmptyPlan("after the order was reversed")
	checkRuns(t, api, []int64{plain, filtered}, other)
	if runs := local.Jobs(); len(runs) != 1 {
		t.Errorf("the job ran %d times, want once: nothing changed its triggers", len(runs))
	}
}

// checkRuns checks that the transformations ids run in that sequence, and
// that other, an import app at order 1, kept its order.
func checkRuns(t *testing.T, api *client.Client, ids []int64, other *client.Record) {
	t.Helper()
	all := projectOrders(t, api)
	for i := 1; i < len(ids); i++ {
		if a, b := all[ids[i-1]].order, all[ids[i]].order; a >= b {
			t.Errorf("config %d (order %d) does not run before config %d (order %d)", ids[i-1], a, ids[i], b)
		}
	}
	if got := all[other.ID].order; got != 1 {
		t.Errorf("import app config %d, which no resource orders, moved to order %d", other.ID, got)
	}
	if len(all) != len(ids)+1 {
		t.Errorf("the project holds %v, want the %d configs", all, len(ids)+1)
	}
}
