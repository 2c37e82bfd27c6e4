package job_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccRunJobAction runs on Terraform 1.14+ only: an action_trigger of a
// terraform_data resource invokes the action after create, and the local
// API records the job with its payload.
func TestAccRunJobAction(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		acctest.SkipUnlessAcc(t)
		jc := acctest.JobCases[tc.Kind.Name]
		host, srv := acctest.IsolatedAPI(t, nil)
		actionType := "pipeline_" + tc.Kind.Name + "_run_job"
		var configID int64
		resource.ParallelTest(t, resource.TestCase{
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config: fmt.Sprintf(`%[5]s
resource %[2]q "test" {
  plugin = %[6]d
}

action %[1]q "test" {
  config {
    config_id = %[2]s.test.id
    job_type  = %[3]q
    payload   = %[4]s
  }
}

resource "terraform_data" "trigger" {
  input = %[2]s.test.id
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.%[1]s.test]
    }
  }
}
`, actionType, tc.TypeName, jc.JobType, jc.Payload, acctest.ProviderBlock(host, acctest.KeyFull, "1"), jc.Plugin),
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureID(tc.TypeName+".test", &configID),
					checkJobs(srv, &configID, jc, 1),
				),
			}},
		})
	})
}

// TestRunJobAction_protocol covers the action on any Terraform by calling
// the provider's protocol 6 server as Terraform 1.14+ would: planning checks
// the job against the plugin's public jobs (errors on job_type and payload)
// and refuses a config the project lacks (an error on config_id); invoking
// sends progress messages and the local API records the job with
// its payload and operation, and a key with scopes gets an error that says
// what to do instead, with nothing run.
func TestRunJobAction_protocol(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		jc := acctest.JobCases[tc.Kind.Name]
		host, local := acctest.IsolatedAPI(t, nil)
		rec := acctest.MustCreate(t, acctest.ClientFor(t, host, acctest.KeyFull), tc.Kind.Collection,
			client.RecordInput{Plugin: client.Some(jc.Plugin), Order: client.Some(int64(1))})
		srv := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1")
		actionType := "pipeline_" + tc.Kind.Name + "_run_job"
		args := func(jobType, payload string) map[string]tftypes.Value {
			return map[string]tftypes.Value{
				"config_id": tftypes.NewValue(tftypes.Number, rec.ID),
				"job_type":  tftypes.NewValue(tftypes.String, jobType),
				"payload":   tftypes.NewValue(tftypes.String, payload),
				"operation": tftypes.NewValue(tftypes.String, "start"),
			}
		}

		// Planning: a good job passes; bad ones fail on their attribute.
		acctest.FailOnDiagnostics(t, "PlanAction", srv.PlanAction(t, actionType, args(jc.JobType, jc.PayloadJSON)))
		for _, bad := range []struct {
			jobType, payload, attr, want string
		}{
			{"Nope", "{}", "job_type", `no public job "Nope"`},
			{jc.JobType, "{}", "payload", `needs the payload field(s) "` + jc.Required + `"`},
			{jc.JobType, `{"` + jc.Required + `": 1, "extra": 1}`, "payload", `no payload field(s) "extra"`},
			{jc.JobType, "[1]", "payload", "must be a JSON object"},
		} {
			expectAttrError(t, srv.PlanAction(t, actionType, args(bad.jobType, bad.payload)), bad.attr, bad.want)
		}
		unknown := args(jc.JobType, jc.PayloadJSON)
		unknown["config_id"] = tftypes.NewValue(tftypes.Number, rec.ID+1000)
		expectAttrError(t, srv.PlanAction(t, actionType, unknown), "config_id", "no job can run on it")
		if runs := local.Jobs(); len(runs) != 0 {
			t.Fatalf("planning ran jobs: %+v", runs)
		}

		// Invoking: progress, then the job on the API.
		inv := srv.Invoke(t, actionType, args(jc.JobType, jc.PayloadJSON))
		acctest.FailOnDiagnostics(t, "InvokeAction", inv.Diagnostics)
		if !inv.Completed || len(inv.Progress) != 2 || !strings.Contains(inv.Progress[0], "Starting job "+fmt.Sprintf("%q", jc.JobType)) ||
			!strings.Contains(inv.Progress[1], "accepted") {
			t.Errorf("invocation %+v, want a start and an accepted progress message and completion", inv)
		}
		id := rec.ID
		if err := checkJobs(local, &id, jc, 1)(nil); err != nil {
			t.Error(err)
		}

		// A key with scopes: a clear error, and nothing run.
		scoped := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
		inv = scoped.Invoke(t, actionType, args(jc.JobType, jc.PayloadJSON))
		if !inv.Completed || len(inv.Diagnostics) != 1 || !strings.Contains(inv.Diagnostics[0].Detail, "Run the job from the config's page") {
			t.Errorf("scoped key: invocation %+v, want one error saying what to do instead", inv)
		}
		if err := checkJobs(local, &id, jc, 1)(nil); err != nil {
			t.Error(err)
		}
	})
}

// expectAttrError checks that diags hold an error on attribute attr whose
// summary or detail contains want.
func expectAttrError(t *testing.T, diags []*tfprotov6.Diagnostic, attr, want string) {
	t.Helper()
	p := tftypes.NewAttributePath().WithAttributeName(attr)
	if !slices.ContainsFunc(diags, func(d *tfprotov6.Diagnostic) bool {
		return d.Severity == tfprotov6.DiagnosticSeverityError && d.Attribute != nil && d.Attribute.Equal(p) &&
			strings.Contains(d.Summary+" "+d.Detail, want)
	}) {
		var got []string
		for _, d := range diags {
			got = append(got, fmt.Sprintf("[%v] %s: %s", d.Attribute, d.Summary, d.Detail))
		}
		t.Errorf("diagnostics %q, want an error on %s saying %q", got, attr, want)
	}
}

// TestRunJobAction_noJobAction: a service of generation 2 has no job
// action; invoking the action on a config made under generation 1 fails
// with an error that says so, and nothing runs.
func TestRunJobAction_noJobAction(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		jc := acctest.JobCases[tc.Kind.Name]
		host, local := acctest.IsolatedAPI(t, nil)
		rec := acctest.MustCreate(t, acctest.ClientFor(t, host, acctest.KeyFull), tc.Kind.Collection,
			client.RecordInput{Plugin: client.Some(jc.Plugin), Order: client.Some(int64(1))})
		if err := local.SetGeneration(localapi.Generation2); err != nil {
			t.Fatal(err)
		}
		srv := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1")
		inv := srv.Invoke(t, "pipeline_"+tc.Kind.Name+"_run_job", map[string]tftypes.Value{
			"config_id": tftypes.NewValue(tftypes.Number, rec.ID),
			"job_type":  tftypes.NewValue(tftypes.String, jc.JobType),
			"payload":   tftypes.NewValue(tftypes.String, jc.PayloadJSON),
		})
		if !inv.Completed || len(inv.Diagnostics) != 1 ||
			!strings.Contains(inv.Diagnostics[0].Detail, fmt.Sprintf("although config %d exists: the service has no job action.", rec.ID)) ||
			!strings.Contains(inv.Diagnostics[0].Detail, "The service no longer runs plugin jobs") {
			t.Errorf("invocation %+v (%q), want one error saying the service has no job action", inv, acctest.DiagnosticsText(inv.Diagnostics))
		}
		if runs := local.Jobs(); len(runs) != 0 {
			t.Errorf("jobs run: %+v", runs)
		}
	})
}
