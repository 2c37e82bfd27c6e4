package acceptance

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// TestAccInvoke_runJob runs `terraform apply -invoke` on the run-job action
// of each kind (Terraform 1.14+): the local API records the job exactly
// once, with its payload; invoked with a scoped key, the action fails with
// the documented error and runs nothing.
func TestAccInvoke_runJob(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		acctest.SkipBelowTerraform(t, "1.14.0")
		host, local := acctest.IsolatedAPI(t, nil)
		jc := acctest.JobCases[tc.Kind.Name]
		configType := tc.TypeName
		actionAddr := "action.pipeline_" + tc.Kind.Name + "_run_job.run"
		tf := acctest.NewTerraform(t, fmt.Sprintf(`variable "api_key" {
  type      = string
  sensitive = true
}

provider "pipeline" {
  host       = %[1]q
  api_key    = var.api_key
  project_id = "1"
}

resource %[2]q "test" {
  plugin = %[3]d
}

action "pipeline_%[4]s_run_job" "run" {
  config {
    config_id = %[2]s.test.id
    job_type  = %[5]q
    payload   = %[6]s
  }
}
`, host, configType, jc.Plugin, tc.Kind.Name, jc.JobType, jc.Payload), nil)
		full := []string{"TF_VAR_api_key=" + localapi.KeyFull}

		if out, err := tf.RunEnv(full, "apply", "-auto-approve", "-no-color"); err != nil {
			t.Fatalf("apply: %v\n%s", err, out)
		}
		if runs := local.Jobs(); len(runs) != 0 {
			t.Fatalf("the apply ran %d jobs; an action runs only when invoked or triggered", len(runs))
		}
		configID := tf.StateIDs()[configType+".test"]

		out, err := tf.RunEnv(full, "apply", "-invoke="+actionAddr, "-auto-approve", "-no-color")
		if err != nil {
			t.Fatalf("apply -invoke: %v\n%s", err, out)
		}
		runs := local.Jobs()
		if len(runs) != 1 {
			t.Fatalf("the local API ran %d jobs, want exactly 1: %+v\n%s", len(runs), runs, out)
		}
		if r := runs[0]; r.ConfigID != configID || r.Type != jc.JobType || r.Operation != "start" || !python.Equal(r.Payload, json.RawMessage(jc.PayloadJSON)) {
			t.Errorf("job %+v (payload %s), want %s on config %d with %s", r, r.Payload, jc.JobType, configID, jc.PayloadJSON)
		}
		if !strings.Contains(out, "The service accepted job") {
			t.Errorf("apply -invoke did not show the action's progress:\n%s", out)
		}

		out, err = tf.RunEnv([]string{"TF_VAR_api_key=" + localapi.KeyWrite}, "apply", "-invoke="+actionAddr, "-auto-approve", "-no-color")
		if err == nil {
			t.Fatalf("apply -invoke with a scoped key succeeded:\n%s", out)
		}
		flat := strings.Join(strings.Fields(out), " ")
		// Refused at plan time, after one look at the config's frontend.
		for _, want := range []string{"This API key may not call job", "only a browser session in PostHog's UI may", "Nothing was sent"} {
			if !strings.Contains(flat, want) {
				t.Errorf("the refusal does not say %q:\n%s", want, out)
			}
		}
		if runs := local.Jobs(); len(runs) != 1 {
			t.Errorf("after the refused invoke the local API holds %d jobs, want still 1", len(runs))
		}
	})
}
