package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// orderedByTerraform is a project's configs a, b and c (c disabled), none
// setting order, and an order resource listing them as names says, with
// unlisted (the unlisted_configs line, or "" for the default).
func orderedByTerraform(tc acctest.KindCase, host, unlisted string, names ...string) string {
	refs := make([]string, len(names))
	for i, n := range names {
		refs[i] = tc.TypeName + "." + n + ".id"
	}
	config := recoveryProvider(host) +
		tc.Resource("a", fmt.Sprintf("  plugin  = %d\n  name    = \"a\"\n  enabled = true", tc.Plugins[0])) +
		tc.Resource("b", fmt.Sprintf("  plugin  = %d\n  name    = \"b\"\n  enabled = true", tc.Plugins[1])) +
		tc.Resource("c", fmt.Sprintf("  plugin  = %d\n  name    = \"c\"\n  enabled = false", tc.Plugins[0]))
	return config + fmt.Sprintf("\nresource \"pipeline_%s_order\" \"this\" {\n  config_ids = [%s]\n%s}\n",
		tc.Kind.Name, strings.Join(refs, ", "), unlisted)
}

// addedInUI creates an enabled config at order 0 through the API with a
// full key, as the PostHog UI does behind Terraform's back, and returns it.
func addedInUI(t *testing.T, host string, tc acctest.KindCase) *client.Record {
	t.Helper()
	return acctest.MustCreate(t, acctest.ClientFor(t, host, localapi.KeyFull), tc.Kind.Collection, client.RecordInput{
		Plugin: client.Some(tc.Plugins[1]), Order: client.Some(int64(0)), Enabled: client.Some(true), Name: client.Some("added in the UI"),
	})
}

// orderOf returns a config's order on the service.
func orderOf(t *testing.T, host string, tc acctest.KindCase, id int64) int64 {
	t.Helper()
	rec, err := acctest.ClientFor(t, host, localapi.KeyFull).Get(context.Background(), "1", tc.Kind.Collection, id)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Order
}

// noConfigIDsChange fails the test when a plan shows config_ids changing or
// a warning: a config the order does not list is never drift of config_ids.
func noConfigIDsChange(t *testing.T, step, plan string) {
	t.Helper()
	if regexp.MustCompile(`~ config_ids|Warning`).MatchString(plan) {
		t.Errorf("%s: the plan changes config_ids or warns:\n%s", step, plan)
	}
}

// TestAccOrder_configAddedInUI (issue 27): a project whose configs an order
// resource lists, and a config added in the UI (on the service, at order
// 0). With unlisted_configs left at "last", the next plan shows one change
// that says what apply does, the new config's order in orders moving after
// the listed ones, and nothing of config_ids; applying it once moves it
// there and the plan is empty again, also once the config is deleted in the
// UI. unlisted_config_ids shows it.
func TestAccOrder_configAddedInUI(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		host, _ := acctest.IsolatedAPI(t, nil)
		tf := acctest.NewTerraform(t, orderedByTerraform(tc, host, "", "b", "a", "c"), nil)
		mustApply(t, tf)
		tf.EmptyPlan("after the first apply")
		addr := "pipeline_" + tc.Kind.Name + "_order.this"

		added := addedInUI(t, host, tc)
		plan, code := tf.PlanExitCode()
		if code != 2 {
			t.Fatalf("the plan after a config was added in the UI: exit code %d, want 2 (one change)\n%s", code, plan)
		}
		noConfigIDsChange(t, "config added in the UI", plan)
		if move := fmt.Sprintf(`~ "%d" = 0 -> 4`, added.ID); !strings.Contains(plan, move) ||
			!strings.Contains(plan, "Plan: 0 to add, 1 to change, 0 to destroy.") {
			t.Errorf("the plan does not show config %d moving from 0 to 4 (%s), and that alone:\n%s", added.ID, move, plan)
		}
		mustApply(t, tf)
		if got := orderOf(t, host, tc, added.ID); got != 4 {
			t.Errorf("config %d has order %d after the apply, want 4 (after the three listed)", added.ID, got)
		}
		tf.EmptyPlan("after the apply that placed the config added in the UI")
		var unlisted []int64
		if err := json.Unmarshal(tf.State()[addr].Attributes["unlisted_config_ids"], &unlisted); err != nil ||
			len(unlisted) != 1 || unlisted[0] != added.ID {
			t.Errorf("unlisted_config_ids %v (%v), want [%d]", unlisted, err, added.ID)
		}

		// Deleted in the UI: nothing to do.
		if _, err := acctest.ClientFor(t, host, localapi.KeyFull).Update(context.Background(), "1", tc.Kind.Collection, added.ID,
			client.RecordInput{Deleted: client.Some(true)}); err != nil {
			t.Fatal(err)
		}
		tf.EmptyPlan("after the config added in the UI was deleted there")
	})
}

// TestAccOrder_configAddedInUIKept (issue 27): with unlisted_configs =
// "keep", a config added in the UI leaves the plan empty and keeps its
// place, and the docs' check block warns about it; re-ordering the listed
// configs then moves only them, within the places (orders) they hold, and
// the config added in the UI keeps its order.
func TestAccOrder_configAddedInUIKept(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		host, local := acctest.IsolatedAPI(t, nil)
		keep := "  unlisted_configs = \"keep\"\n"
		check := readFile(t, filepath.Join("..", "..", "examples", "resources", "pipeline_"+tc.Kind.Name+"_order", "check.tf"))
		tf := acctest.NewTerraformWith(t, orderedByTerraform(tc, host, keep, "b", "a", "c"),
			acctest.TerraformSetup{Files: map[string]string{"check.tf": string(check)}})
		mustApply(t, tf)
		tf.EmptyPlan("after the first apply")

		added := addedInUI(t, host, tc)
		local.ResetCounters()
		plan, code := tf.PlanExitCode()
		if code != 0 {
			t.Fatalf("the plan after a config was added in the UI: exit code %d, want 0 (no change)\n%s", code, plan)
		}
		if warning := fmt.Sprintf("configs not in config_ids: %d.", added.ID); !strings.Contains(plan, "Check block assertion failed") ||
			!strings.Contains(plan, warning) {
			t.Errorf("the plan does not warn %q through the docs' check block:\n%s", warning, plan)
		}
		if out := mustApply(t, tf); !strings.Contains(out, "0 added, 0 changed, 0 destroyed") {
			t.Errorf("the apply after a config was added in the UI changed something:\n%s", out)
		}
		if c := local.Counters(); c["update"]+c["rearrange"] != 0 {
			t.Errorf("the apply wrote orders: %v", c)
		}

		tf.WriteConfig(orderedByTerraform(tc, host, keep, "a", "b", "c"))
		plan, code = tf.PlanExitCode()
		if code != 2 || strings.Contains(plan, fmt.Sprintf(`"%d" =`, added.ID)) {
			t.Errorf("the plan of a new sequence: exit code %d, want 2, without a change of config %d:\n%s", code, added.ID, plan)
		}
		mustApply(t, tf)
		tf.EmptyPlan("after the new sequence")
		if got := orderOf(t, host, tc, added.ID); got != 0 {
			t.Errorf("config %d added in the UI has order %d, want 0 (kept)", added.ID, got)
		}
		ids := tf.StateIDs()
		a, b, c := orderOf(t, host, tc, ids[tc.TypeName+".a"]), orderOf(t, host, tc, ids[tc.TypeName+".b"]), orderOf(t, host, tc, ids[tc.TypeName+".c"])
		if a >= b || b >= c {
			t.Errorf("a, b and c have orders %d, %d and %d, want them in that sequence", a, b, c)
		}
	})
}

// TestAccOrder_stateVersion0 (issue 27): the order resource's state as the
// provider wrote it before unlisted_configs (schema version 0: no
// unlisted_configs nor unlisted_config_ids) upgrades to unlisted_configs =
// "last" with no planned change, with and without a refresh, and a config
// added in the UI then plans the one change of "last".
func TestAccOrder_stateVersion0(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		host, _ := acctest.IsolatedAPI(t, nil)
		tf := acctest.NewTerraform(t, orderedByTerraform(tc, host, "", "b", "a", "c"), nil)
		mustApply(t, tf)
		addr := "pipeline_" + tc.Kind.Name + "_order.this"
		downgradeOrderState(t, tf, tc.Kind.Name)
		if in := tf.State()[addr]; in.SchemaVersion != 0 || in.Attributes["unlisted_configs"] != nil {
			t.Fatalf("the state of version 0 is not one: %+v", in)
		}

		tf.EmptyPlan("after the upgrade, no refresh", "-refresh=false")
		tf.EmptyPlan("after the upgrade")
		mustApply(t, tf)
		if in := tf.State()[addr]; in.SchemaVersion != 1 || string(in.Attributes["unlisted_configs"]) != `"last"` ||
			string(in.Attributes["unlisted_config_ids"]) != "[]" {
			t.Errorf("the upgraded state: version %d, unlisted_configs %s, unlisted_config_ids %s; want 1, \"last\", []",
				in.SchemaVersion, in.Attributes["unlisted_configs"], in.Attributes["unlisted_config_ids"])
		}

		added := addedInUI(t, host, tc)
		plan, code := tf.PlanExitCode()
		noConfigIDsChange(t, "config added in the UI", plan)
		if code != 2 || !strings.Contains(plan, fmt.Sprintf(`~ "%d" = 0 -> 4`, added.ID)) {
			t.Errorf("the plan after a config was added in the UI: exit code %d, want 2 moving config %d to 4\n%s", code, added.ID, plan)
		}
	})
}

// downgradeOrderState rewrites the order resource's state in the working
// directory as schema version 0 wrote it: without unlisted_configs and
// unlisted_config_ids.
func downgradeOrderState(t *testing.T, tf *acctest.Terraform, kindName string) {
	t.Helper()
	name := filepath.Join(tf.Dir, "terraform.tfstate")
	b, err := os.ReadFile(name) //nolint:gosec // G304: the test's own state file
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]json.RawMessage
	var resources []map[string]json.RawMessage
	mustJSON(t, json.Unmarshal(b, &st))
	mustJSON(t, json.Unmarshal(st["resources"], &resources))
	for _, res := range resources {
		var typ string
		mustJSON(t, json.Unmarshal(res["type"], &typ))
		if typ != "pipeline_"+kindName+"_order" {
			continue
		}
		var instances []map[string]json.RawMessage
		mustJSON(t, json.Unmarshal(res["instances"], &instances))
		for _, inst := range instances {
			var attrs map[string]json.RawMessage
			mustJSON(t, json.Unmarshal(inst["attributes"], &attrs))
			delete(attrs, "unlisted_configs")
			delete(attrs, "unlisted_config_ids")
			inst["schema_version"] = json.RawMessage("0")
			inst["attributes"] = mustMarshal(t, attrs)
		}
		res["instances"] = mustMarshal(t, instances)
	}
	st["resources"] = mustMarshal(t, resources)
	out, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, out, 0o600); err != nil { //nolint:gosec // G703: the test's own working directory
		t.Fatal(err)
	}
}

func mustJSON(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustMarshal(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	mustJSON(t, err)
	return b
}
