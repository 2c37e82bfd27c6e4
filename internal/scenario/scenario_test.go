package scenario

import (
	"context"
	"flag"
	"os"
	"testing"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestScenarios runs generated scenarios: a plugin catalog, one or two
// config resources, and steps that configure, apply, change the service,
// upgrade plugins, import and destroy, with the invariants checked after
// each (Machine). Each runs against a local API of its own; against a live
// instance (POSTHOG_*), a few run with a bounded number of creates and
// remove what they made. -rapid.checks sets how many (make fuzz runs more),
// -rapid.seed or -rapid.failfile replays one.
func TestScenarios(t *testing.T) {
	if acctest.IsLive() {
		acctest.PreCheck(t) // a service that no longer creates configs has nothing to converge
		plugins := map[string][]int64{}
		for _, kind := range Kinds {
			plugins[kind] = acctest.Plugins(t, kind)
		}
		checksUnlessSet(t, liveChecks)
		runLive(t, os.Getenv(acctest.EnvHost), os.Getenv(acctest.EnvAPIKey), os.Getenv(acctest.EnvProjectID), plugins)
		return
	}
	rapid.Check(t, func(rt *rapid.T) {
		cat := catalogGen.Draw(rt, "catalog")
		current := rapid.Bool().Draw(rt, "provider project_id is @current")
		// A version that stores configs, which later steps may move on; config
		// ids from a drawn start, so that they are the catalog's plugin ids.
		v := rapid.SampledFrom(startVersions).Draw(rt, "version")
		env := LocalEnv(t, cat, current, v, rapid.Int64Range(1, int64(len(cat.Plugins))).Draw(rt, "first config id"))
		defer env.Close()
		m := NewMachine(rt, env, t.TempDir)
		rt.Repeat(m.Actions())
	})
	t.Logf("applies that converged: %d, refused: %d; imports: %d, plugin upgrades: %d, changes on the service: %d, "+
		"killed applies: %d (configs adopted after them: %d, left over and named: %d), moves to a later version: %d, "+
		"order applies: %d, configs let go of by state rm or a removed block: %d (imported into another state: %d), "+
		"other paths to the working directory: %d",
		stats.Applies.Load(), stats.Refused.Load(), stats.Imports.Load(), stats.Upgrades.Load(), stats.Changes.Load(),
		stats.Kills.Load(), stats.Adopted.Load(), stats.Leftovers.Load(), stats.Versions.Load(), stats.Orders.Load(),
		stats.Released.Load(), stats.ImportedElsewhere.Load(), stats.Paths.Load())
}

// startVersions are the versions a scenario starts at: those that store
// the configs it creates (B, the seed's, C and D).
var startVersions = []localapi.Version{localapi.VersionB, localapi.VersionC, localapi.VersionD}

// Bounds of a live run: scenarios, and creates per scenario (the oracle's
// included).
const (
	liveChecks     = "5"
	liveMaxCreates = 6
)

// runLive runs scenarios against a service that is not the test's own,
// as against a live instance, and removes what each created. It returns
// how many scenarios ran (rapid's checks, and the runs of shrinking).
func runLive(t *testing.T, host, key, project string, plugins map[string][]int64) int {
	runs := 0
	rapid.Check(t, func(rt *rapid.T) {
		runs++
		env := LiveEnv(t, host, key, project, plugins, liveMaxCreates)
		defer func() {
			if err := env.RemoveCreated(context.Background()); err != nil {
				t.Errorf("removing the scenario's configs: %v", err)
			}
		}()
		m := NewMachine(rt, env, t.TempDir)
		rt.Repeat(m.Actions())
	})
	return runs
}

// TestScenariosLiveMode runs the live mode (runLive) against a local API
// that it treats as live (no catalog of its own, no upgrades, the oracle in
// the project itself): creates stay within the bound, and nothing the
// scenarios made is left active.
func TestScenariosLiveMode(t *testing.T) {
	if acctest.IsLive() {
		t.Skip("TestScenarios runs against the live instance")
	}
	host, _ := acctest.IsolatedAPI(t, nil)
	api := acctest.ClientFor(t, host, acctest.KeyFull)
	before := LiveEnv(t, host, acctest.KeyFull, "1", nil, 0)
	// A config that was there before: the scenarios must leave it alone.
	kept := acctest.MustCreate(t, api, Collection("transformation"), recordInput(1))
	checksUnlessSet(t, liveChecks)
	runs := runLive(t, host, acctest.KeyFull, "1", map[string][]int64{"transformation": {1, 2}, "import_app": {3, 4}})
	after, err := before.ActiveIDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 1 || !after[kept.ID] {
		t.Errorf("active configs after the scenarios: %v, want only the one made before (%d)", after, kept.ID)
	}
	// Ids come from one sequence: the next one tells how many configs the
	// scenarios made, however many ran. A scenario stops creating at its
	// bound, but the apply that reaches it may make, per resource of the
	// workspace, one config and one of the oracle's.
	next := acctest.MustCreate(t, api, Collection("transformation"), recordInput(1))
	bound := int64(runs * (liveMaxCreates + 2*maxResources))
	if made := next.ID - kept.ID - 1; made > bound {
		t.Errorf("%d configs made in %d scenarios, more than %d each", made, runs, liveMaxCreates+2*maxResources)
	}
}

// checksUnlessSet sets rapid's -rapid.checks to n unless the command line
// set it.
func checksUnlessSet(t *testing.T, n string) {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if set {
		return
	}
	old := flag.Lookup("rapid.checks").Value.String()
	if err := flag.Set("rapid.checks", n); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = flag.Set("rapid.checks", old) })
}

// recordInput is a minimal create of a config of plugin.
func recordInput(plugin int64) client.RecordInput {
	return client.RecordInput{Plugin: client.Some(plugin), Order: client.Some(int64(0))}
}
