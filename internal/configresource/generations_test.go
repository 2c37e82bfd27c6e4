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

const seededFilters = `{"events":[{"id":"$pageview","type":"events"}]}`

// TestConfigResource_droppedFilters: against a service without filters
// (version C, the first without: PostHog PR #24374), configured filters are
// an error on the filters attribute, never an inconsistent result: at plan
// time after one look at a record of the project when the operation read
// none (a plan without a refresh), with no request once its refresh saw a
// record without the field, and at apply when the service lost them
// between the plan and the apply (the update's answer lacks the field),
// which stores what the service answered, the other changes applied.
func TestConfigResource_droppedFilters(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		host, srv := acctest.IsolatedAPI(t, nil)
		ctx := context.Background()
		str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
		config := map[string]tftypes.Value{
			"plugin":  tftypes.NewValue(tftypes.Number, tc.Plugins[0]),
			"filters": str(seededFilters),
			"name":    str("before"),
		}
		created := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1").Apply(t, tc.TypeName, nil, nil, config)
		acctest.FailOnDiagnostics(t, "create at version B", created.Diagnostics)
		config["name"] = str("after")

		// Planned at B, applied at C.
		ps := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
		typ := ps.ResourceType(t, tc.TypeName)
		plan := ps.Plan(t, tc.TypeName, created.NewState, created.Private, created.NewIdentity, config)
		acctest.FailOnDiagnostics(t, "plan at version B", plan.Diagnostics)
		if err := srv.SetVersion(localapi.VersionC); err != nil {
			t.Fatal(err)
		}
		applied, err := ps.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
			TypeName: tc.TypeName, PriorState: created.NewState, PlannedState: plan.PlannedState,
			Config: acctest.DynamicValue(t, typ, config), PlannedPrivate: plan.PlannedPrivate, PlannedIdentity: plan.PlannedIdentity,
		})
		if err != nil {
			t.Fatal(err)
		}
		expectFiltersError(t, "apply", applied.Diagnostics, "The other changes were applied")
		stored := acctest.Attributes(t, applied.NewState, typ)
		if !stored["filters"].IsNull() || !stored["name"].Equal(str("after")) {
			t.Errorf("state after the refused apply: filters %v, name %v; want the service's answer (no filters, the new name)",
				stored["filters"], stored["name"])
		}

		// A plan without a refresh: one look at the project, no write.
		srv.ResetCounters()
		plan = acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1").
			Plan(t, tc.TypeName, applied.NewState, applied.Private, applied.NewIdentity, config)
		expectFiltersError(t, "plan without a refresh", plan.Diagnostics, "can never be applied")
		if c := srv.Counters(); c["total"] != 1 || c["list"] != 1 {
			t.Errorf("the refused plan without a refresh made %v, want one list", c)
		}

		// Plan after a refresh of the same operation: refused before any write.
		ps = acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
		read, err := ps.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: tc.TypeName, CurrentState: applied.NewState,
			CurrentIdentity: applied.NewIdentity, Private: applied.Private})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "refresh", read.Diagnostics)
		srv.ResetCounters()
		plan = ps.Plan(t, tc.TypeName, read.NewState, read.Private, read.NewIdentity, config)
		expectFiltersError(t, "plan", plan.Diagnostics, "can never be applied")
		// Refused from what the refresh saw: no request at all to find out.
		if n := srv.Counters()["total"]; n != 0 {
			t.Errorf("the refused plan made %d requests, want none", n)
		}
	})
}

// expectFiltersError checks that diags hold the one error of filters the
// service drops, on the filters attribute, saying more.
func expectFiltersError(t *testing.T, step string, diags []*tfprotov6.Diagnostic, more string) {
	t.Helper()
	var errs []*tfprotov6.Diagnostic
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			errs = append(errs, d)
		}
	}
	if len(errs) != 1 {
		t.Fatalf("%s: diagnostics %+v, want one error", step, diags)
	}
	d := errs[0]
	if d.Summary != "The service ignores filters" || d.Attribute == nil ||
		!d.Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("filters")) ||
		!strings.Contains(d.Detail, "Remove filters from this resource's configuration") || !strings.Contains(d.Detail, more) {
		t.Errorf("%s: error %q on %v: %q", step, d.Summary, d.Attribute, d.Detail)
	}
}
