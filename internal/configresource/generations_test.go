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

// TestConfigResource_droppedFilters: against a generation 2 service, which
// has no filters field, configured filters are an error on the filters
// attribute, never an inconsistent result: at plan time (without a request)
// once this operation's refresh saw a record without the field, and at
// apply when the provider could not know before (the update's answer lacks
// the field). The apply stores what the service answered, the other changes
// applied.
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
		acctest.FailOnDiagnostics(t, "create at generation 1", created.Diagnostics)
		if err := srv.SetGeneration(localapi.Generation2); err != nil {
			t.Fatal(err)
		}
		config["name"] = str("after")

		// Apply, without a refresh first (-refresh=false): the provider
		// learns of the missing field from the update's answer.
		ps := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
		applied := ps.Apply(t, tc.TypeName, created.NewState, created.NewIdentity, config)
		expectFiltersError(t, "apply", applied.Diagnostics, "The other changes were applied")
		typ := ps.ResourceType(t, tc.TypeName)
		stored := acctest.Attributes(t, applied.NewState, typ)
		if !stored["filters"].IsNull() || !stored["name"].Equal(str("after")) {
			t.Errorf("state after the refused apply: filters %v, name %v; want the service's answer (no filters, the new name)",
				stored["filters"], stored["name"])
		}

		// Plan after a refresh of the same operation: refused before any write.
		ps = acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
		read, err := ps.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: tc.TypeName, CurrentState: applied.NewState,
			CurrentIdentity: applied.NewIdentity})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "refresh", read.Diagnostics)
		proposed := map[string]tftypes.Value{}
		for name, v := range acctest.Attributes(t, read.NewState, typ) {
			proposed[name] = v
		}
		for name, v := range config {
			proposed[name] = v
		}
		srv.ResetCounters()
		plan, err := ps.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
			TypeName: tc.TypeName, PriorState: read.NewState, PriorIdentity: read.NewIdentity,
			ProposedNewState: acctest.DynamicValue(t, typ, proposed), Config: acctest.DynamicValue(t, typ, config),
		})
		if err != nil {
			t.Fatal(err)
		}
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
