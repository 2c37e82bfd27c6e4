package scenario

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
)

// planned is a plan walk's outcome: each resource's plan (nil: not
// planned, being out of the configuration and the state, or not
// targeted) and its instance as refreshed.
type planned struct {
	plans     []*acctest.Plan
	refreshed []acctest.Instance
	refused   bool
	// invalid are the validation errors of resources the plan did not
	// target, which refuse it as well.
	invalid [][]*tfprotov6.Diagnostic
}

// plan runs a plan walk of ws: a new provider refreshes the targeted
// resources in state (unless flags say -refresh=false) and plans each.
// The refreshed instances are the caller's to keep: an apply keeps them,
// `terraform plan` does not.
func (m *Machine) plan(t *rapid.T, ws *Workspace, flags Flags) planned {
	ctx := context.Background()
	journal := m.journal(ws)
	srv := m.env.Server(journal)
	defer createonce.Release(journal, true)
	m.resetCounters()
	w := planned{plans: make([]*acctest.Plan, len(ws.slots)), refreshed: make([]acctest.Instance, len(ws.slots)),
		invalid: make([][]*tfprotov6.Diagnostic, len(ws.slots))}
	refreshed := 0
	for i, s := range ws.slots {
		w.refreshed[i] = s.inst
		if !flags.targets(s) || !s.inst.Exists() || !flags.Refresh {
			continue
		}
		refreshed++
		next, diags, err := m.core(t, srv, s.kind).Refresh(ctx, s.inst)
		if err != nil {
			m.fail(t, "refresh of %s: %v", ws.address(s), err)
		}
		if acctest.HasError(diags) {
			m.fail(t, "refresh of %s failed:%s", ws.address(s), acctest.DiagnosticsText(diags))
		}
		w.refreshed[i] = next
	}
	planned := 0
	for i, s := range ws.slots {
		if !flags.targets(s) && s.config != nil {
			// Terraform validates the whole configuration, targeted or not.
			c := m.core(t, srv, s.kind)
			diags, err := c.Validate(ctx, m.configValue(t, c, s.config))
			if err != nil {
				m.fail(t, "validating %s: %v", ws.address(s), err)
			}
			if acctest.HasError(diags) {
				w.invalid[i], w.refused = diags, true
			}
		}
		if !flags.targets(s) || s.config == nil && !w.refreshed[i].Exists() {
			continue
		}
		c := m.core(t, srv, s.kind)
		p, err := c.Plan(ctx, w.refreshed[i], m.configValue(t, c, s.config))
		if err != nil {
			m.fail(t, "plan of %s: %v", ws.address(s), err)
		}
		w.plans[i] = p
		planned++
		if acctest.HasError(p.Diagnostics) {
			w.refused = true
		}
	}
	m.checkPlanBudget(t, refreshed, planned, m.plansCreate(ws, w) || ws.configuresFilters())
	return w
}

// apply runs `terraform apply` of ws with flags and checks it: an apply
// succeeds exactly when the service accepts the values, changes the
// service only as its plan says, and the next plan is empty. Nothing is
// replaced but for another plugin or project (an import included).
func (m *Machine) apply(t *rapid.T, ws *Workspace, flags Flags) {
	m.step("apply %s %s", ws.Name, flags)
	m.run(t, ws, flags, nil)
}

// applied is what an apply walk did.
type applied struct {
	// killed: the kill came, and lost is the answer a killed provider
	// never got (nil: none).
	killed bool
	lost   *LostAnswer
	// diags are each resource's apply diagnostics, and writes how many
	// writes its apply made.
	diags  [][]*tfprotov6.Diagnostic
	writes []int64
	// done: the resource's apply ran and succeeded. handed are the
	// configs that applies finished before a kill gave Terraform.
	done   []bool
	handed map[int64]bool
	// planRefused: the plan was refused, so nothing was applied.
	planRefused bool
}

// run is apply, killed as kill says (nil: not at all).
func (m *Machine) run(t *rapid.T, ws *Workspace, flags Flags, kill *Kill) *applied {
	ctx := context.Background()
	w := m.plan(t, ws, flags)
	if w.refused {
		for i, p := range w.plans {
			if p != nil && acctest.HasError(p.Diagnostics) {
				m.checkRefusal(t, ws, ws.slots[i], m.intended(ws.slots[i], w.refreshed[i]), p.Diagnostics, "plan")
			}
			if w.invalid[i] != nil {
				m.checkRefusal(t, ws, ws.slots[i], m.intended(ws.slots[i], w.refreshed[i]), w.invalid[i], "validation")
			}
		}
		m.step("plan of %s refused", ws.Name)
		stats.Refused.Add(1)
		return &applied{diags: make([][]*tfprotov6.Diagnostic, len(ws.slots)), planRefused: true}
	}
	if m.env.MaxCreates > 0 && m.env.Creates >= m.env.MaxCreates && createsAny(w) {
		m.step("not applied: the scenario made its creates")
		return &applied{diags: make([][]*tfprotov6.Diagnostic, len(ws.slots))}
	}
	verdicts := m.judgePlans(t, ws, w)

	prior := make([]acctest.Instance, len(ws.slots))
	secretsRead := make([][]string, len(ws.slots))
	for i, s := range ws.slots {
		prior[i], secretsRead[i] = s.inst, s.secretsRead
		s.inst = w.refreshed[i] // an apply keeps its refresh
		if w.plans[i] != nil {
			s.converged = false
			if flags.Refresh {
				s.drift = false
				s.read(m.env.Catalog)
			}
		}
	}
	before, err := m.env.Snapshot(ctx, nil)
	if err != nil {
		m.fail(t, "reading the project: %v", err)
	}
	out := m.applyWalk(t, ws, w, kill)
	after, err := m.env.Snapshot(ctx, before)
	if err != nil {
		m.fail(t, "reading the project: %v", err)
	}
	adopted := m.checkAdoptions(t, ws, w, out)
	a := Applied{Refresh: flags.Refresh, Adopted: adopted, StaleSecrets: map[int64][]string{}, Done: map[string]bool{}}
	for i, p := range w.plans {
		if p != nil {
			sh := ShownOf(ws.address(ws.slots[i]), p)
			a.Shown = append(a.Shown, sh)
			a.StaleSecrets[sh.ID] = secretsRead[i]
			a.Done[sh.Name] = out.done[i]
		}
	}
	if problems := ChangesAsPlanned(m.env.Catalog, a, before, after); len(problems) > 0 {
		var plans []string
		for i, p := range w.plans {
			if p != nil {
				plans = append(plans, fmt.Sprintf("%s (%s, config %d):%s", ws.address(ws.slots[i]), p.Action(), a.Shown[len(plans)].ID, planDiff(p)))
			}
		}
		m.fail(t, "the apply of %s changed the service other than as its plan said:\n  %s\nThe plan:\n  %s", ws.Name,
			joinLines(problems), joinLines(plans))
	}
	if out.killed {
		for i, s := range ws.slots {
			if !kill.Saved {
				s.inst = prior[i]
			}
			if w.plans[i] != nil {
				s.drift = true
			}
		}
		m.noteOrphans(ws, before, after, out)
		return out
	}
	m.noteLeftovers(ws, out)
	failed := m.judgeOutcome(t, ws, w, verdicts, out, after)
	if failed {
		stats.Refused.Add(1)
		return out
	}
	stats.Applies.Add(1)
	m.checkConverged(t, ws, flags)
	return out
}

// createsAny reports whether a plan walk plans a create or replacement.
func createsAny(w planned) bool {
	for _, p := range w.plans {
		if p != nil && (p.Action() == "create" || p.Action() == "replace") {
			return true
		}
	}
	return false
}

// plansCreate reports whether a plan walk plans (or meant to, before a
// refusal) a create or replacement.
func (m *Machine) plansCreate(ws *Workspace, w planned) bool {
	for i, p := range w.plans {
		if p != nil {
			if a := m.intended(ws.slots[i], w.refreshed[i]); a == "create" || a == "replace" {
				return true
			}
		}
	}
	return false
}

// judgePlans asks the service about every configuration the apply will
// write, and checks that nothing is replaced without cause.
func (m *Machine) judgePlans(t *rapid.T, ws *Workspace, w planned) []verdict {
	ctx := context.Background()
	out := make([]verdict, len(ws.slots))
	for i, p := range w.plans {
		if p == nil {
			continue
		}
		s := ws.slots[i]
		switch p.Action() {
		case "create", "update", "replace":
			ok, why, err := m.env.Verdict(ctx, s.config, p.Action())
			if err != nil {
				m.fail(t, "asking the service about %s: %v", ws.address(s), err)
			}
			out[i] = verdict{ok, why}
			if ok && p.Action() != "update" {
				m.env.Creates++
			}
		}
		if p.Action() == "replace" && !m.replaceable(s) {
			m.fail(t, "%s is planned for replacement, but neither its plugin nor its project changed", ws.address(s))
		}
	}
	return out
}

// verdict is the service's judgment of what an apply sends.
type verdict struct {
	ok  bool
	why string
}

// applyWalk applies the plans with a new provider, killed as kill says.
// The operation under way when the kill comes is lost: Terraform never got
// its answer, and the walk stops.
func (m *Machine) applyWalk(t *rapid.T, ws *Workspace, w planned, kill *Kill) *applied {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	journal := m.journal(ws)
	srv := m.env.Server(journal)
	if kill != nil {
		m.env.kills.arm(*kill, func() {
			if kill.Provider {
				createonce.Release(journal, false) // nothing more reaches the journal
			} else {
				createonce.Orphan(journal) // what the provider hands over now reaches no state
			}
			cancel()
		})
	}
	out := &applied{diags: make([][]*tfprotov6.Diagnostic, len(ws.slots)), writes: make([]int64, len(ws.slots)),
		done: make([]bool, len(ws.slots)), handed: map[int64]bool{}}
	m.resetCounters()
	for i, p := range w.plans {
		if p == nil || p.Action() == "noop" {
			continue
		}
		s := ws.slots[i]
		writes := m.writes()
		next, diags, err := m.core(t, srv, s.kind).Apply(ctx, p)
		if kill != nil && m.env.kills.firedYet() {
			m.step("killed during the %s of %s", p.Action(), ws.address(s))
			break
		}
		if err != nil {
			m.fail(t, "apply of %s (%s): %v", ws.address(s), p.Action(), err)
		}
		if id, _, ok := idOf(next); ok {
			if was, _, held := idOf(s.inst); !held || was != id {
				out.handed[id] = true // Terraform got it, and may save it
			}
		}
		s.inst, out.diags[i], out.writes[i] = next, diags, m.writes()-writes
		out.done[i] = !acctest.HasError(diags)
		s.read(m.env.Catalog)
		if acctest.HasError(diags) && settingsPolicy(diags) && m.writes() > writes {
			m.fail(t, "the apply of %s (%s) was refused for its plugin settings only after it wrote to the service:%s",
				ws.address(s), p.Action(), acctest.DiagnosticsText(diags))
		}
	}
	if kill != nil {
		out.killed, out.lost = m.env.kills.disarm()
	}
	createonce.Release(journal, !out.killed)
	return out
}

// writes counts the writes the local API served since the counters were
// reset (0 against a live instance).
func (m *Machine) writes() int64 {
	c := m.env.Counters()
	return c["create"] + c["update"] + c["delete"]
}

// judgeOutcome checks each applied resource against the service's
// judgment, and what a destroy and a write of secrets left on the service.
// It reports whether any apply failed.
func (m *Machine) judgeOutcome(t *rapid.T, ws *Workspace, w planned, verdicts []verdict, out *applied, after Snapshot) bool {
	failed := false
	var creates, updates, deletes int64
	for i, p := range w.plans {
		if p == nil || p.Action() == "noop" {
			continue
		}
		s, action, diags := ws.slots[i], p.Action(), out.diags[i]
		switch action {
		case "create":
			creates++
		case "update":
			updates++
		case "delete":
			deletes++
		case "replace":
			creates++
			deletes++
		}
		if acctest.HasError(diags) {
			failed = true
			if action == "delete" {
				m.fail(t, "destroy of %s failed:%s", ws.address(s), acctest.DiagnosticsText(diags))
			}
			m.checkRefusal(t, ws, s, action, diags, "apply")
			m.step("apply of %s (%s) refused", ws.address(s), action)
			continue
		}
		if action != "delete" && !verdicts[i].ok && (out.writes[i] > 0 || m.env.Local == nil) {
			m.fail(t, "the provider applied %s (%s), which the service refuses: %s%s", ws.address(s), action, verdicts[i].why, planDiff(p))
		}
		if action == "delete" || action == "replace" {
			m.checkDeleted(t, p.Prior, after)
		}
		if action != "delete" {
			m.checkSecretsHeld(t, ws, s, p, after)
		}
		m.step("applied %s (%s)%s", ws.address(s), action, planDiff(p))
	}
	if !failed {
		m.checkApplyBudget(t, ws, creates, updates, deletes, adoptedCount(out))
	}
	return failed
}

// checkConverged plans again with the same flags: the apply's resources
// plan nothing, and are converged. A resource whose config the service
// changed behind a state that the apply did not refresh is not: what the
// apply read may plan more.
func (m *Machine) checkConverged(t *rapid.T, ws *Workspace, flags Flags) {
	again := m.plan(t, ws, flags)
	for i, p := range again.plans {
		s := ws.slots[i]
		if p == nil || s.drift {
			continue
		}
		if again.refused || p.Action() != "noop" {
			m.fail(t, "after a successful apply, the next plan of %s is %s%s%s",
				ws.address(s), p.Action(), acctest.DiagnosticsText(p.Diagnostics), planDiff(p))
		}
		s.converged = true
	}
}

func joinLines(lines []string) string {
	out := ""
	for i, l := range lines {
		if i > 0 {
			out += "\n  "
		}
		out += l
	}
	return out
}
