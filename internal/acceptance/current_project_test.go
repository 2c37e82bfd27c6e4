package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// TestAccImport_currentProject: "@current" and the project's id address
// the same configs (the local API's keys have project 1 as their current
// project). Under a provider of "@current", import blocks by identity name
// a config and the order by project "1"; under a provider of "1", another
// config by "@current". Neither the imports nor the change of the
// provider's project_id replace anything: the config resources, the order
// and a job that ran keep their project as imported or created, and their
// identities; nothing is written and the job does not run again. Each plan
// after an apply is empty, also with -refresh=false, where telling the two
// forms apart costs one lookup for the whole plan. Another project is
// still a replacement.
func TestAccImport_currentProject(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		acctest.SkipWithoutIdentityImport(t)
		host, local := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, localapi.KeyFull)
		job := acctest.JobCases[tc.Kind.Name]
		ctx := context.Background()
		var ids []int64
		for i := range 2 {
			rec, err := api.Create(ctx, "1", tc.Kind.Collection, client.RecordInput{
				Plugin: client.Some(job.Plugin), Order: client.Some(int64(i + 1)), Enabled: client.Some(true),
			})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, rec.ID)
		}

		configType, orderType, jobType := tc.TypeName, "pipeline_"+tc.Kind.Name+"_order", "pipeline_"+tc.Kind.Name+"_job"
		// The legacy key: only it may run jobs.
		config := func(provider, projectOfA, importB string) string {
			a := ""
			if projectOfA != "" {
				a = fmt.Sprintf("\n  project_id = %q", projectOfA)
			}
			return fmt.Sprintf(`provider "pipeline" {
  host       = %[1]q
  api_key    = %[2]q
  project_id = %[3]q
}

import {
  to       = %[4]s.a
  identity = { project_id = "1", id = %[7]d }
}

import {
  to       = %[5]s.all
  identity = { project_id = "1" }
}

resource %[4]q "a" {
  plugin  = %[9]d
  enabled = true
  order   = 1%[10]s
}

resource %[6]q "run" {
  config_id = %[4]s.a.id
  job_type  = %[11]q
  payload   = %[12]s
}
%[13]s`, host, localapi.KeyFull, provider, configType, orderType, jobType, ids[0], ids[1], job.Plugin, a,
				job.JobType, job.Payload, importB)
		}
		withB := fmt.Sprintf(`
import {
  to       = %[1]s.b
  identity = { project_id = "@current", id = %[2]d }
}

resource %[1]q "b" {
  plugin  = %[3]d
  enabled = true
  order   = 2
}

resource %[4]q "all" {
  config_ids = [%[1]s.a.id, %[1]s.b.id]
}
`, configType, ids[1], job.Plugin, orderType)
		withoutB := fmt.Sprintf(`
resource %[1]q "all" {
  config_ids = [%[2]s.a.id, %[3]d]
}
`, orderType, configType, ids[1])

		var tf *acctest.Terraform
		apply := func(step, want string) {
			t.Helper()
			local.ResetCounters()
			out, err := tf.Run("apply", "-auto-approve", "-no-color")
			if err != nil {
				t.Fatalf("%s: apply: %v\n%s", step, err, out)
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s: the apply did not say %q:\n%s", step, want, out)
			}
			c := local.Counters()
			if writes := c["create"] + c["update"] + c["delete"] + c["rearrange"]; writes != 0 {
				t.Errorf("%s: %d writes on the service, want none: %v", step, writes, c)
			}
		}
		unrefreshed := func(step string) {
			t.Helper()
			local.ResetCounters()
			tf.EmptyPlan(step+", without refresh", "-refresh=false")
			if gets := local.Counters()["retrieve"]; gets > 1 {
				t.Errorf("%s: the plan without refresh made %d GETs, want at most one lookup for every resource", step, gets)
			}
		}
		identities := map[string]string{
			configType + ".a":  fmt.Sprintf(`{"id":%d,"project_id":"1"}`, ids[0]),
			orderType + ".all": `{"project_id":"1"}`,
		}
		checkIdentities := func(step string) {
			t.Helper()
			state := tf.State()
			for addr, want := range identities {
				if got := state[addr].Identity; !python.Equal(got, json.RawMessage(want)) {
					t.Errorf("%s: %s has the identity %s, want %s", step, addr, got, want)
				}
			}
		}

		// Under "@current": the config and the order imported as project 1,
		// and a job run on the config.
		tf = acctest.NewTerraform(t, config("@current", "", withoutB), nil)
		if err := local.ResetJobs(); err != nil {
			t.Fatal(err)
		}
		apply("imports as 1 under @current", "2 imported, 1 added, 0 changed, 0 destroyed")
		if runs := local.Jobs(); len(runs) != 1 {
			t.Fatalf("%d job runs, want 1", len(runs))
		}
		checkIdentities("imports as 1 under @current")
		tf.EmptyPlan("after the imports as 1 under @current")
		unrefreshed("after the imports as 1 under @current")

		// Under "1": the other config imported as @current. Nothing else
		// changes: the job does not run again.
		tf.WriteConfig(config("1", "", withB))
		apply("import as @current under 1", "1 imported, 0 added, 0 changed, 0 destroyed")
		if runs := local.Jobs(); len(runs) != 1 {
			t.Errorf("%d job runs after the provider's project_id changed form, want still 1", len(runs))
		}
		identities[configType+".b"] = fmt.Sprintf(`{"id":%d,"project_id":"@current"}`, ids[1])
		checkIdentities("import as @current under 1")
		tf.EmptyPlan("after the import as @current under 1")
		unrefreshed("after the import as @current under 1")
		state := tf.State()
		for addr, want := range map[string]string{configType + ".a": `"1"`, configType + ".b": `"@current"`, jobType + ".run": `"@current"`} {
			if got := string(state[addr].Attributes["project_id"]); got != want {
				t.Errorf("%s has project_id %s in state, want %s as imported or created", addr, got, want)
			}
		}

		// Another project is a replacement.
		tf.WriteConfig(config("1", "2", withB))
		out, code := tf.PlanExitCode()
		if code != 2 || !strings.Contains(out, configType+".a must be replaced") {
			t.Errorf("project_id 2 for a config of project 1: exit code %d, want a replacement of %s.a\n%s", code, configType, out)
		}
	})
}
