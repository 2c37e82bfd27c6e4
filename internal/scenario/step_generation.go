package scenario

import (
	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// SwitchGeneration moves the service to generation 2, as PostHog did under
// its users in July 2025, or straight to the service as it is today
// (scoped keys, creates refused; the local API's today's mode), now and
// then, and once: creates store nothing from then on, and records have no
// filters. A resource that had
// converged without filters plans nothing after it; one with filters
// configured may plan (their removal is the user's to write).
func (m *Machine) SwitchGeneration(t *rapid.T) {
	if m.env.Local.Generation() != localapi.Generation1 || rapid.IntRange(0, 3).Draw(t, "switch now") > 0 {
		t.Skip("not now")
	}
	if rapid.Bool().Draw(t, "as the service is today") {
		m.env.Local.SetToday(true)
		m.step("the service moves to generation 2 as it is today")
	} else {
		if err := m.env.Local.SetGeneration(localapi.Generation2); err != nil {
			m.fail(t, "switching the service: %v", err)
		}
		m.step("the service moves to generation 2")
	}
	stats.Generations.Add(1)
	for _, ws := range m.workspaces {
		for _, s := range ws.slots {
			s.drift = s.drift || s.inst.Exists()
			if s.config != nil && s.config.Filters != nil {
				s.converged = false
			}
		}
		w := m.plan(t, ws, Full)
		for i, p := range w.plans {
			s := ws.slots[i]
			if p != nil && s.converged && (p.Action() != "noop" || acctest.HasError(p.Diagnostics)) {
				m.fail(t, "after the move to generation 2, %s, which has no filters, plans %s%s%s", ws.address(s),
					p.Action(), acctest.DiagnosticsText(p.Diagnostics), planDiff(p))
			}
		}
	}
}
