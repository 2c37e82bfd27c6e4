package scenario

import (
	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// SwitchVersion moves the service to a later version, as PostHog did under
// its users (the notes' "Versions of the service"), now and then, up to
// E2026, the service as it is today: from C on records have no filters,
// from D on rearrange is keyed by config id and job is gone, from E on
// creates store nothing, at E2026 every key has scopes. A resource that
// had converged plans nothing after it, unless it configures filters and
// the move took them away (their removal is the user's to write).
func (m *Machine) SwitchVersion(t *rapid.T) {
	from := m.env.Local.Version()
	if from >= localapi.VersionE2026 || rapid.IntRange(0, 3).Draw(t, "switch now") > 0 {
		t.Skip("not now")
	}
	var later []localapi.Version
	for _, v := range localapi.Versions() {
		if v > from && v <= localapi.VersionE2026 {
			later = append(later, v)
		}
	}
	to := rapid.SampledFrom(later).Draw(t, "version")
	if err := m.env.Local.SetVersion(to); err != nil {
		m.fail(t, "switching the service: %v", err)
	}
	m.step("the service moves from version %v to %v", from, to)
	stats.Versions.Add(1)
	lostFilters := from == localapi.VersionB
	for _, ws := range m.workspaces {
		for _, s := range ws.slots {
			if !lostFilters {
				continue
			}
			s.drift = s.drift || s.inst.Exists()
			if s.config != nil && s.config.Filters != nil {
				s.converged = false
			}
		}
		w := m.plan(t, ws, Full)
		for i, p := range w.plans {
			s := ws.slots[i]
			if p != nil && s.converged && (p.Action() != "noop" || acctest.HasError(p.Diagnostics)) {
				m.fail(t, "after the move to version %v, %s, which has no filters, plans %s%s%s", to, ws.address(s),
					p.Action(), acctest.DiagnosticsText(p.Diagnostics), planDiff(p))
			}
		}
	}
}
