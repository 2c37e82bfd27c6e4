package configresource_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// TestConfigResource_timeoutsOnly: a change of timeouts alone is nothing
// for the service. Its plan keeps the state's computed values (no
// unknowns), its apply sends no request at all, and the next plan is empty.
func TestConfigResource_timeoutsOnly(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		var log acctest.RequestLog
		host, _ := acctest.IsolatedAPI(t, log.Wrap)
		srv := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
		typ := srv.ResourceType(t, tc.TypeName)
		config := map[string]tftypes.Value{"plugin": tftypes.NewValue(tftypes.Number, tc.Plugins[0])}
		created := srv.Apply(t, tc.TypeName, nil, nil, config)
		acctest.FailOnDiagnostics(t, "create", created.Diagnostics)
		log.Take()

		obj, _ := typ.(tftypes.Object)
		timeoutsType, ok := obj.AttributeTypes["timeouts"].(tftypes.Object)
		if !ok {
			t.Fatalf("timeouts of %s is not an object", tc.TypeName)
		}
		limits := map[string]tftypes.Value{}
		for name, at := range timeoutsType.AttributeTypes {
			limits[name] = tftypes.NewValue(at, nil)
		}
		limits["update"] = tftypes.NewValue(tftypes.String, "7m")
		config["timeouts"] = tftypes.NewValue(timeoutsType, limits)

		plan := planChange(t, srv, tc.TypeName, created.NewState, created.NewIdentity, config)
		if planned, err := plan.PlannedState.Unmarshal(typ); err != nil || !planned.IsFullyKnown() {
			t.Errorf("plan of a timeouts change has unknown values (%v): %v", err, planned)
		}
		applied, err := srv.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
			TypeName: tc.TypeName, PriorState: created.NewState, PlannedState: plan.PlannedState,
			Config: acctest.DynamicValue(t, typ, config), PlannedPrivate: plan.PlannedPrivate,
			PlannedIdentity: plan.PlannedIdentity,
		})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "apply", applied.Diagnostics)
		if got := log.Take(); len(got) != 0 {
			t.Errorf("apply of a timeouts change made requests %q, want none", got)
		}
		state := acctest.Attributes(t, applied.NewState, typ)
		if !state["timeouts"].Equal(config["timeouts"]) {
			t.Errorf("timeouts in state %v, want %v", state["timeouts"], config["timeouts"])
		}
		if before := acctest.Attributes(t, created.NewState, typ); !state["updated_at"].Equal(before["updated_at"]) {
			t.Errorf("updated_at %v, want the state's %v", state["updated_at"], before["updated_at"])
		}

		next := planChange(t, srv, tc.TypeName, applied.NewState, applied.NewIdentity, config)
		if planned := acctest.Attributes(t, next.PlannedState, typ); !tftypes.NewValue(typ, planned).Equal(tftypes.NewValue(typ, state)) ||
			len(next.RequiresReplace) != 0 {
			t.Errorf("next plan changes the state:\n%v\nwant\n%v", planned, state)
		}
	})
}

// planChange plans a change of a resource from prior to config, as
// Terraform does (see acctest.ProviderServer.Apply).
func planChange(t *testing.T, srv *acctest.ProviderServer, typeName string, prior *tfprotov6.DynamicValue,
	identity *tfprotov6.ResourceIdentityData, config map[string]tftypes.Value,
) *tfprotov6.PlanResourceChangeResponse {
	t.Helper()
	typ := srv.ResourceType(t, typeName)
	proposed := acctest.Attributes(t, prior, typ)
	for name, v := range config {
		proposed[name] = v
	}
	plan, err := srv.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: prior, PriorIdentity: identity,
		ProposedNewState: acctest.DynamicValue(t, typ, proposed), Config: acctest.DynamicValue(t, typ, config),
	})
	if err != nil {
		t.Fatal(err)
	}
	acctest.FailOnDiagnostics(t, "plan", plan.Diagnostics)
	return plan
}
