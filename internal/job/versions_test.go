package job_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestJobResource_versions (issue 35): a job resource on each version of
// the service, over a config made at B. B and C have the job action: the
// job runs (C's records, without filters, look like D's, so the plan
// looks once at the job route, which answers 405). From D on the plan
// refuses the job on config_id, saying that the service runs no plugin
// jobs any more, and nothing is sent to the job route but that look (none
// at E2026, whose records tell).
func TestJobResource_versions(t *testing.T) {
	for _, v := range []localapi.Version{localapi.VersionB, localapi.VersionC, localapi.VersionD, localapi.VersionE, localapi.VersionE2026} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			tc := acctest.KindCases(t)[0]
			jc := acctest.JobCases[tc.Kind.Name]
			var log acctest.RequestLog
			host, local := acctest.IsolatedAPI(t, log.Wrap)
			rec := acctest.MustCreate(t, acctest.ClientFor(t, host, acctest.KeyFull), tc.Kind.Collection,
				client.RecordInput{Plugin: client.Some(jc.Plugin), Order: client.Some(int64(1))})
			if err := local.SetVersion(v); err != nil {
				t.Fatal(err)
			}
			log.Take()
			srv := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1")
			typeName := "pipeline_" + tc.Kind.Name + "_job"
			config := map[string]tftypes.Value{
				"config_id": tftypes.NewValue(tftypes.Number, rec.ID),
				"job_type":  tftypes.NewValue(tftypes.String, jc.JobType),
				"payload":   tftypes.NewValue(tftypes.String, jc.PayloadJSON),
			}
			plan := srv.Plan(t, typeName, acctest.NullValue(t, srv.ResourceType(t, typeName)), nil, nil, config)
			looks := 0
			for _, r := range log.Take() {
				if strings.HasSuffix(r, "/job/") {
					if !strings.HasPrefix(r, "GET ") {
						t.Errorf("the plan sent %s", r)
					}
					looks++
				}
			}
			if wantLooks := map[bool]int{true: 1}[v == localapi.VersionC || v == localapi.VersionD || v == localapi.VersionE]; looks != wantLooks {
				t.Errorf("the plan looked %d times at the job route, want %d", looks, wantLooks)
			}
			if v <= localapi.VersionC {
				acctest.FailOnDiagnostics(t, "plan", plan.Diagnostics)
				applied := srv.Apply(t, typeName, nil, nil, config)
				acctest.FailOnDiagnostics(t, "apply", applied.Diagnostics)
				if runs := local.Jobs(); len(runs) != 1 {
					t.Errorf("job runs %+v, want one", runs)
				}
				return
			}
			if len(plan.Diagnostics) != 1 || plan.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityError ||
				plan.Diagnostics[0].Attribute == nil || !plan.Diagnostics[0].Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("config_id")) ||
				!strings.Contains(plan.Diagnostics[0].Detail, "The service no longer runs plugin jobs") ||
				!strings.Contains(plan.Diagnostics[0].Detail, "since late 2024") {
				t.Errorf("plan diagnostics%s, want one error on config_id saying the service runs no plugin jobs since late 2024",
					acctest.DiagnosticsText(plan.Diagnostics))
			}
			if c := local.Counters(); c["job"] != 0 {
				t.Errorf("%d job calls, want none", c["job"])
			}
		})
	}
}
