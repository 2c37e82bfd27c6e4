package scenario

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"
)

// The request budgets of the performance guide, checked after every walk
// against the local API's counters (nothing against a live instance).

// checkPlanBudget checks a plan walk that refreshed refreshed resources
// and planned planned (creates among them, or filters to send: looks): it
// writes nothing, and reads at most twice per resource it refreshed, plus
// one; a plan of creates or of filters to send also looks at one record of
// each collection once, while nothing told whether the service stores
// configs or has filters.
func (m *Machine) checkPlanBudget(t *rapid.T, refreshed, planned int, looks bool) {
	counts := m.env.Counters()
	if counts == nil {
		return
	}
	if writes := counts["create"] + counts["update"] + counts["delete"]; writes != 0 {
		m.fail(t, "a plan wrote to the service: %s", describeCounters(counts))
	}
	budget := int64(2*refreshed + 1)
	if looks {
		budget += int64(len(Kinds))
	}
	if reads := counts["list"] + counts["retrieve"]; reads > budget {
		m.fail(t, "a plan that refreshed %d resources and planned %d made %d reads (budget %d): %s",
			refreshed, planned, reads, budget, describeCounters(counts))
	}
}

// checkApplyBudget checks an apply walk of ws that succeeded: one POST per
// create (none for a config adopted from a killed run), at most one PATCH
// per update, delete and create (which may send its settings once the
// config exists, until the service has shown that it stores configs) and
// per adoption (which sends the settings again), a GET at most per create
// and update (two per adoption, which reads the orphan first), and lists
// only to look for what creates of a killed provider may have made (both
// collections, per such create); and what the apply walk's own plan reads
// (Terraform plans every change again before it applies it): one read, as
// a plan without a refresh, and for creates or filters configured a look
// at each collection.
func (m *Machine) checkApplyBudget(t *rapid.T, ws *Workspace, creates, updates, deletes, adopted int64) {
	counts := m.env.Counters()
	if counts == nil {
		return
	}
	lists := int64(2 * ws.openEntries)
	if creates > 0 || ws.configuresFilters() {
		lists += int64(len(Kinds))
	}
	if counts["create"] != creates-adopted || counts["update"] > updates+deletes+creates+adopted || counts["list"] > lists ||
		counts["retrieve"] > creates+updates+2*adopted+1 {
		m.fail(t, "the apply of %d creates (%d adopted), %d updates and %d deletes made %s", creates, adopted, updates,
			deletes, describeCounters(counts))
	}
}

// describeCounters renders the counters that are not zero.
func describeCounters(c map[string]int64) string {
	var parts []string
	for _, k := range []string{"list", "retrieve", "create", "update", "delete"} {
		if c[k] != 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", k, c[k]))
		}
	}
	return strings.Join(parts, " ")
}

// configuresFilters reports whether a resource of ws configures filters,
// which a plan may look at the project to judge.
func (ws *Workspace) configuresFilters() bool {
	for _, s := range ws.slots {
		if s.config != nil && s.config.Filters != nil {
			return true
		}
	}
	return false
}
