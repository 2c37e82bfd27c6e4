package scenario

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// TestScenarios runs generated scenarios against a local API of their own:
// a plugin catalog, one or two config resources, and steps that configure,
// apply, change the service, upgrade plugins, import and destroy, with the
// invariants checked after each (Machine). -rapid.checks sets how many
// (make fuzz runs more), -rapid.seed replays one.
func TestScenarios(t *testing.T) {
	if acctest.IsLive() {
		t.Skip("TestScenariosLive runs them against the live instance")
	}
	rapid.Check(t, func(rt *rapid.T) {
		cat := catalogGen.Draw(rt, "catalog")
		env := LocalEnv(t, cat, rapid.Bool().Draw(rt, "provider project_id is @current"))
		defer env.Close()
		m := NewMachine(rt, env)
		rt.Repeat(m.Actions())
	})
	t.Logf("applies that converged: %d, refused: %d; imports: %d, plugin upgrades: %d, changes on the service: %d",
		stats.Applies.Load(), stats.Refused.Load(), stats.Imports.Load(), stats.Upgrades.Load(), stats.Changes.Load())
}
