package acceptance

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// The warnings of a destroy on a service that makes no configs.
const (
	finalDestroyPlanned = "A destroyed transformation config cannot be made again"
	finalDestroyDone    = "Deleted transformation config cannot be made again"
)

// TestAccDestroyWarning_onlyWhereNoCreate: on today's service a deleted
// config cannot be made again, so the plan of its destroy warns before
// anything happens and the apply says it once done, naming the config and
// the one way back, which works; at generation 1, where an apply makes it
// again, neither says anything (issue 36, point 5).
func TestAccDestroyWarning_onlyWhereNoCreate(t *testing.T) {
	t.Parallel()
	t.Run("today", func(t *testing.T) {
		t.Parallel()
		var id int64
		host, local := acctest.IsolatedTodayAPI(t, nil, existingGeoIP(t, &id))
		tf := acctest.NewTerraform(t, todayProvider(host, localapi.KeyWrite)+fmt.Sprintf(`
import {
  to = pipeline_transformation_config.geoip
  id = "1/%d"
}

resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  enabled = true
  name    = "GeoIP"
}
`, id), nil)
		mustApply(t, tf)
		local.ResetCounters()
		out, code := tf.PlanExitCode("-destroy")
		flat := strings.Join(strings.Fields(out), " ")
		if code != 2 || !strings.Contains(flat, finalDestroyPlanned) ||
			!strings.Contains(flat, fmt.Sprintf("This plan deletes transformation config %d of project 1", id)) ||
			!strings.Contains(flat, "set enabled = false instead") {
			t.Errorf("the plan of the destroy (exit %d) does not warn that it cannot be undone:\n%s", code, out)
		}
		// Without a refresh, the config's last answer tells.
		if out, code := tf.PlanExitCode("-destroy", "-refresh=false"); code != 2 || !strings.Contains(out, finalDestroyPlanned) {
			t.Errorf("the plan of the destroy without a refresh (exit %d) does not warn that it cannot be undone:\n%s", code, out)
		}
		if c := local.Counters(); c["update"]+c["delete"] != 0 {
			t.Errorf("the plans wrote: %v", c)
		}

		out, err := tf.Run("destroy", "-auto-approve", "-no-color")
		flat = strings.Join(strings.Fields(out), " ")
		if err != nil || !strings.Contains(flat, finalDestroyDone) ||
			!strings.Contains(flat, fmt.Sprintf("Terraform deleted transformation config %d of project 1", id)) {
			t.Errorf("the destroy (%v) does not say the config cannot be made again:\n%s", err, out)
		}
		stored, err := local.StoredRecords(1)
		if err != nil {
			t.Fatal(err)
		}
		if !stored[id].Deleted {
			t.Fatalf("config %d is not deleted: %+v", id, stored[id])
		}
		// The way back the warnings name.
		api := acctest.ClientFor(t, host, localapi.KeyWrite)
		if _, err := api.Update(context.Background(), "1", client.Transformations, id, client.RecordInput{Deleted: client.Some(false)}); err != nil {
			t.Fatalf("the PATCH the warnings name does not bring config %d back: %v", id, err)
		}
		if active := activeIDs(t, host); active[id] != 1 {
			t.Errorf("config %d is not active again after the PATCH: %v", id, active)
		}
	})
	t.Run("generation 1", func(t *testing.T) {
		t.Parallel()
		host, _ := acctest.IsolatedAPI(t, nil)
		tf := acctest.NewTerraform(t, settingsWith(host, localapi.KeyWrite, `  name = "GeoIP"`), nil)
		mustApply(t, tf)
		out, code := tf.PlanExitCode("-destroy")
		if code != 2 || strings.Contains(out, "cannot be made again") {
			t.Errorf("the plan of the destroy (exit %d) warns where an apply can make the config again:\n%s", code, out)
		}
		out, err := tf.Run("destroy", "-auto-approve", "-no-color")
		if err != nil || strings.Contains(out, "cannot be made again") {
			t.Errorf("the destroy (%v) warns where an apply can make the config again:\n%s", err, out)
		}
		if active := activeIDs(t, host); len(active) != 0 {
			t.Errorf("configs %v are still active", active)
		}
	})
}
