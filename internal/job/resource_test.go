package job_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccJobResource runs a job of a config created in the same
// configuration, against a local API of its own whose job record is
// checked: the job ran once with its payload; the same payload written
// differently plans nothing; a trigger change runs it again; an unknown job
// type, a missing required payload field and an unknown one fail at plan
// time on their attribute without running anything; a key with scopes gets
// an error that says what to do instead.
func TestAccJobResource(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		acctest.SkipUnlessAcc(t)
		jc := acctest.JobCases[tc.Kind.Name]
		host, srv := acctest.IsolatedAPI(t, nil)
		jobType := "pipeline_" + tc.Kind.Name + "_job"
		addr := jobType + ".test"
		var configID int64
		config := func(job, triggers string) string {
			return fmt.Sprintf(`%[1]s
resource %[2]q "test" {
  plugin = %[3]d
}

resource %[4]q "test" {
  config_id = %[2]s.test.id
%[5]s
  triggers = { %[6]s }
}
`, acctest.ProviderBlock(host, acctest.KeyFull, "1"), tc.TypeName, jc.Plugin, jobType, job, triggers)
		}
		valid := fmt.Sprintf("  job_type  = %q\n  payload   = %s", jc.JobType, jc.Payload)
		// The same JSON, written out by hand in another key order.
		var fields map[string]any
		if err := json.Unmarshal([]byte(jc.PayloadJSON), &fields); err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, k := range slices.Backward(slices.Sorted(mapKeys(fields))) {
			v, _ := json.Marshal(fields[k])
			parts = append(parts, fmt.Sprintf("%q: %s", k, v))
		}
		rewritten := fmt.Sprintf("  job_type  = %q\n  payload   = %q", jc.JobType, "{ "+strings.Join(parts, ", ")+" }")

		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					Config:           config(valid, `run = "1"`),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)),
					Check: resource.ComposeAggregateTestCheckFunc(
						acctest.CaptureID(tc.TypeName+".test", &configID),
						checkJobs(srv, &configID, jc, 1),
						resource.TestCheckResourceAttr(addr, "operation", "start"),
						resource.TestCheckResourceAttr(addr, "project_id", "1"),
						resource.TestCheckResourceAttrSet(addr, "ran_at"),
					),
				},
				{
					Config:           config(rewritten, `run = "1"`),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectEmptyPlan()),
					Check:            checkJobs(srv, &configID, jc, 1),
				},
				{
					Config:           config(valid, `run = "2"`),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)),
					Check:            checkJobs(srv, &configID, jc, 2),
				},
				{
					Config:      config(fmt.Sprintf("  job_type = \"Nope\"\n  payload  = %s", jc.Payload), `run = "3"`),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)Unknown job type.*with ` + addr + `.*job_type.*no public job "Nope".*` + regexp.QuoteMeta(fmt.Sprintf("%q", jc.JobType))),
				},
				{
					Config:      config(fmt.Sprintf("  job_type = %q\n  payload  = jsonencode({})", jc.JobType), `run = "3"`),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)Missing required job field.*payload.*needs the payload field\(s\) "` + jc.Required + `"`),
				},
				{
					Config:      config(fmt.Sprintf("  job_type = %q\n  payload  = jsonencode({ %s = 1, extra = 1 })", jc.JobType, jc.Required), `run = "3"`),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)Unknown field for job.*payload.*no payload field\(s\) "extra"`),
				},
				{
					Config:      config("  job_type = \"x\"\n  payload  = jsonencode([1])", `run = "3"`),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)Payload is not a JSON object.*payload`),
				},
				{
					// Nothing ran in the failed plans.
					Config:           config(valid, `run = "2"`),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectEmptyPlan()),
					Check:            checkJobs(srv, &configID, jc, 2),
				},
				{
					// A key with scopes may not run jobs. (One provider
					// configuration: in-process test providers share one
					// server, so an aliased second one would not be apart.)
					Config: fmt.Sprintf(`%[1]s
resource %[2]q "test" {
  plugin = %[3]d
}

resource %[4]q "scoped" {
  config_id = %[2]s.test.id
%[5]s
}
`, acctest.ProviderBlock(host, acctest.KeyWrite, "1"), tc.TypeName, jc.Plugin, jobType, valid),
					// Refused at plan time: nothing is sent that writes.
					ExpectError: regexp.MustCompile(`(?s)This\s+API\s+key\s+may\s+not\s+call\s+job.*Nothing\s+was\s+sent.*Run\s+the\s+job\s+from\s+the\s+config's\s+page`),
				},
			},
		})
	})
}

// mapKeys returns the keys of m.
func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// checkJobs checks that the local API recorded exactly n runs, each of jc's
// job on the config *id with jc's payload and operation "start".
func checkJobs(srv *localapi.Server, id *int64, jc acctest.JobCase, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		runs := srv.Jobs()
		if len(runs) != n {
			return fmt.Errorf("the local API ran %d jobs, want %d: %+v", len(runs), n, runs)
		}
		for _, r := range runs {
			if r.ConfigID != *id || r.Project != 1 || r.Type != jc.JobType || r.Operation != "start" || !jsonEqual(r.Payload, jc.PayloadJSON) {
				return fmt.Errorf("job run %+v (payload %s), want %s on config %d with %s", r, r.Payload, jc.JobType, *id, jc.PayloadJSON)
			}
		}
		return nil
	}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(a json.RawMessage, b string) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal([]byte(b), &y) == nil && fmt.Sprint(x) == fmt.Sprint(y)
}

// TestJobResource_requests counts the job resource's requests: planning a
// run reads the config once (to check the job), create makes the one job
// call, and read and delete call nothing.
func TestJobResource_requests(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		jc := acctest.JobCases[tc.Kind.Name]
		var log acctest.RequestLog
		host, local := acctest.IsolatedAPI(t, log.Wrap)
		rec := acctest.MustCreate(t, acctest.ClientFor(t, host, acctest.KeyFull), tc.Kind.Collection,
			client.RecordInput{Plugin: client.Some(jc.Plugin), Order: client.Some(int64(1))})
		srv := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1")
		typeName := "pipeline_" + tc.Kind.Name + "_job"
		path := "/api/projects/1/" + string(tc.Kind.Collection) + "/" + strconv.FormatInt(rec.ID, 10) + "/"
		log.Take()

		created := srv.Apply(t, typeName, nil, nil, map[string]tftypes.Value{
			"config_id": tftypes.NewValue(tftypes.Number, rec.ID),
			"job_type":  tftypes.NewValue(tftypes.String, jc.JobType),
			"payload":   tftypes.NewValue(tftypes.String, jc.PayloadJSON),
		})
		acctest.FailOnDiagnostics(t, "create", created.Diagnostics)
		// The plan reads the config and looks once whether the key may call
		// the service's actions (the frontend, which writes nothing).
		if got, want := log.Take(), []string{"GET " + path, "GET " + path + "frontend/", "POST " + path + "job/"}; !slices.Equal(got, want) {
			t.Errorf("plan and create: requests %q, want %q", got, want)
		}
		if runs := local.Jobs(); len(runs) != 1 || runs[0].ConfigID != rec.ID || !jsonEqual(runs[0].Payload, jc.PayloadJSON) {
			t.Errorf("job runs %+v, want one of config %d with %s", runs, rec.ID, jc.PayloadJSON)
		}

		read, err := srv.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: created.NewState})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "read", read.Diagnostics)
		destroyed := srv.Apply(t, typeName, read.NewState, nil, nil)
		acctest.FailOnDiagnostics(t, "destroy", destroyed.Diagnostics)
		if got := log.Take(); len(got) != 0 {
			t.Errorf("read and destroy made requests %q, want none", got)
		}
		if c := local.Counters(); c["job"] != 1 {
			t.Errorf("job calls %d, want 1", c["job"])
		}
	})
}
