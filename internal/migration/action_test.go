package migration_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// TestMigrateAction_protocol covers the migrate action on any Terraform by
// calling the provider's protocol 6 server as Terraform 1.14+ would:
// planning refuses an unknown config on config_id without migrating
// anything; invoking sends progress messages and the local API makes one
// hog function of the config and disables it; a key with scopes, which the
// local API refuses for migrate, gets an error that says what to do, and
// nothing more is made.
func TestMigrateAction_protocol(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		host, srv, configID := generation2(t, tc)
		ps := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1")
		actionType := "pipeline_" + tc.Kind.Name + "_migrate"
		config := func(id int64) map[string]tftypes.Value {
			return map[string]tftypes.Value{"config_id": tftypes.NewValue(tftypes.Number, id)}
		}

		diags := ps.PlanAction(t, actionType, config(999999))
		if !slices.ContainsFunc(diags, func(d *tfprotov6.Diagnostic) bool {
			return d.Severity == tfprotov6.DiagnosticSeverityError && d.Attribute != nil &&
				d.Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("config_id")) &&
				strings.Contains(d.Detail, "nothing to migrate")
		}) {
			t.Errorf("planning an unknown config: %+v, want an error on config_id", diags)
		}
		acctest.FailOnDiagnostics(t, "PlanAction", ps.PlanAction(t, actionType, config(configID)))
		if n := srv.Counters()["migrate"]; n != 0 {
			t.Fatalf("planning sent %d migrate requests", n)
		}

		inv := ps.Invoke(t, actionType, config(configID))
		acctest.FailOnDiagnostics(t, "InvokeAction", inv.Diagnostics)
		made := srv.HogFunctions()
		if len(made) != 1 {
			t.Fatalf("hog functions %+v, want 1", made)
		}
		if !inv.Completed || len(inv.Progress) != 2 || !strings.Contains(inv.Progress[0], "Migrating "+tc.Kind.Noun) ||
			!strings.Contains(inv.Progress[1], "made hog function "+made[0].ID) {
			t.Errorf("invocation %+v, want a start and a done progress message naming the hog function", inv)
		}
		if err := checkMigratedOnce(host, srv, tc, configID); err != nil {
			t.Error(err)
		}

		scoped := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
		inv = scoped.Invoke(t, actionType, config(configID))
		if !inv.Completed || len(inv.Diagnostics) != 1 || !strings.Contains(inv.Diagnostics[0].Detail, "posthog_hog_function") {
			t.Errorf("scoped key: invocation %+v, want one error saying what to do instead", inv)
		}
		if made := srv.HogFunctions(); len(made) != 1 {
			t.Errorf("after the refused invocation %d hog functions, want still 1", len(made))
		}
	})
}
