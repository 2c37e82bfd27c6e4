package configresource_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestConfigResource_versions (issue 35): what a config resource plans
// for a create, a destroy and a replacement on each version of the service
// after a refresh of a config made at B. C and D answer records without
// filters, as later versions do, and still store configs: a create is
// planned and made, a destroy plans no warning, a replacement only warns
// that a later service could not undo it. E2026's records tell that it
// makes none: the create and the replacement are refused at plan time with
// nothing sent, the destroy warns that it cannot be undone. E answers as D
// does, so it is planned as D: its first create is sent and refused from
// the answer (the hog function it made), and a create planned after that
// in the same run is refused before anything is sent.
func TestConfigResource_versions(t *testing.T) {
	for _, v := range []localapi.Version{localapi.VersionC, localapi.VersionD, localapi.VersionE, localapi.VersionE2026} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			tc := acctest.KindCases(t)[0] // transformations: plugin 1 has a hog function template
			host, local := acctest.IsolatedAPI(t, nil)
			str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
			num := func(n int64) tftypes.Value { return tftypes.NewValue(tftypes.Number, n) }
			existing := map[string]tftypes.Value{"plugin": num(tc.Plugins[0]), "name": str("made at B")}
			made := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1").Apply(t, tc.TypeName, nil, nil, existing)
			acctest.FailOnDiagnostics(t, "create at B", made.Diagnostics)
			if err := local.SetVersion(v); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			srv := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1")
			typ := srv.ResourceType(t, tc.TypeName)
			read, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: tc.TypeName, CurrentState: made.NewState,
				CurrentIdentity: made.NewIdentity, Private: made.Private})
			if err != nil {
				t.Fatal(err)
			}
			acctest.FailOnDiagnostics(t, "refresh", read.Diagnostics)
			stores := v < localapi.VersionE

			// A destroy, planned by a provider that read nothing.
			destroy, err := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1").PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
				TypeName: tc.TypeName, PriorState: read.NewState, PriorPrivate: read.Private, PriorIdentity: read.NewIdentity,
				ProposedNewState: acctest.NullValue(t, typ), Config: acctest.NullValue(t, typ),
			})
			if err != nil {
				t.Fatal(err)
			}
			warns := summaries(destroy.Diagnostics, tfprotov6.DiagnosticSeverityWarning, "cannot be made again")
			if want := map[bool]int{true: 1}[v == localapi.VersionE2026]; len(warns) != want || acctest.HasError(destroy.Diagnostics) {
				t.Errorf("the plan of a destroy at %v:%s; want %d warning that it cannot be undone", v, acctest.DiagnosticsText(destroy.Diagnostics), want)
			}

			// A replacement: another plugin.
			other := map[string]tftypes.Value{"plugin": num(tc.Plugins[1]), "name": str("made at B")}
			replace := srv.Plan(t, tc.TypeName, read.NewState, read.Private, read.NewIdentity, other)
			switch refused := summaries(replace.Diagnostics, tfprotov6.DiagnosticSeverityError, "Cannot replace config"); {
			case stores && (len(refused) > 0 || len(summaries(replace.Diagnostics, tfprotov6.DiagnosticSeverityWarning, "cannot be undone on every service")) != 1):
				t.Errorf("the plan of a replacement at %v:%s; want only the warning that a later service could not undo it", v,
					acctest.DiagnosticsText(replace.Diagnostics))
			case !stores && v == localapi.VersionE2026 && len(refused) != 1:
				t.Errorf("the plan of a replacement at E2026:%s; want it refused", acctest.DiagnosticsText(replace.Diagnostics))
			}

			// A create.
			local.ResetCounters()
			config := map[string]tftypes.Value{"plugin": num(tc.Plugins[0]), "name": str("new")}
			plan := srv.Plan(t, tc.TypeName, acctest.NullValue(t, typ), nil, nil, config)
			refusedAtPlan := len(summaries(plan.Diagnostics, tfprotov6.DiagnosticSeverityError, "The service no longer creates")) == 1
			switch {
			case stores && acctest.HasError(plan.Diagnostics), v == localapi.VersionE && acctest.HasError(plan.Diagnostics):
				t.Fatalf("the plan of a create at %v:%s", v, acctest.DiagnosticsText(plan.Diagnostics))
			case v == localapi.VersionE2026:
				if !refusedAtPlan || local.Counters()["create"] != 0 {
					t.Errorf("the plan of a create at E2026:%s (%d creates sent); want it refused before anything is sent",
						acctest.DiagnosticsText(plan.Diagnostics), local.Counters()["create"])
				}
				return
			}
			applied, err := srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
				TypeName: tc.TypeName, PriorState: acctest.NullValue(t, typ), PlannedState: plan.PlannedState,
				Config: acctest.DynamicValue(t, typ, config), PlannedPrivate: plan.PlannedPrivate,
			})
			if err != nil {
				t.Fatal(err)
			}
			if stores {
				acctest.FailOnDiagnostics(t, "create", applied.Diagnostics)
				if c := local.Counters()["create"]; c != 1 {
					t.Errorf("%d creates sent, want 1", c)
				}
				return
			}
			if made := summaries(applied.Diagnostics, tfprotov6.DiagnosticSeverityError, "The service made a hog function instead of"); len(made) != 1 {
				t.Errorf("the create at E:%s; want the hog function it made named", acctest.DiagnosticsText(applied.Diagnostics))
			}
			again := srv.Plan(t, tc.TypeName, acctest.NullValue(t, typ), nil, nil, map[string]tftypes.Value{"plugin": num(tc.Plugins[1])})
			if len(summaries(again.Diagnostics, tfprotov6.DiagnosticSeverityError, "The service no longer creates")) != 1 || local.Counters()["create"] != 1 {
				t.Errorf("a second create at E:%s (%d creates sent); want it refused at plan time", acctest.DiagnosticsText(again.Diagnostics),
					local.Counters()["create"])
			}
		})
	}
}

// summaries returns the summaries of diags of severity that contain text.
func summaries(diags []*tfprotov6.Diagnostic, severity tfprotov6.DiagnosticSeverity, text string) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == severity && strings.Contains(d.Summary, text) {
			out = append(out, d.Summary)
		}
	}
	return out
}
