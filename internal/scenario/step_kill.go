package scenario

import (
	"maps"
	"regexp"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// KilledApply changes a resource's configuration, applies its workspace
// and kills the apply at a request boundary, Terraform alone
// or with its provider, then applies again at once with the same options,
// as a user re-runs the command. The second apply adopts every config
// the killed one created and never gave Terraform (with a warning), and
// names in a warning every config a create made whose answer never came,
// and every one Terraform got but did not save; nothing is made twice
// otherwise. Now and then the user first lets go of a config the state
// holds (ReleaseFromState), whose entry the kill left open: the next
// apply's create of the same settings never takes it; or reaches the
// working directory another way (AnotherPath).
func (m *Machine) KilledApply(t *rapid.T) {
	ws := m.pick(t)
	m.configure(t, ws, pickSlot(t, ws, "resource"))
	flags := flagsGen(ws).Draw(t, "flags")
	kill := Kill{
		After:    rapid.IntRange(1, 4).Draw(t, "killed with request"),
		Provider: rapid.Bool().Draw(t, "the provider killed too"),
		Saved:    rapid.Bool().Draw(t, "state saved before the kill"),
	}
	who := "terraform"
	if kill.Provider {
		who = "terraform and its provider"
	}
	m.step("apply %s %s, %s killed with request %d (state saved: %v)", ws.Name, flags, who, kill.After, kill.Saved)
	out := m.run(t, ws, flags, &kill)
	if !out.killed {
		return // refused, or done before the kill
	}
	stats.Kills.Add(1)
	if rapid.IntRange(0, 2).Draw(t, "let go of a config before applying again") == 0 {
		m.release(t, ws) // the killed run's entries of what Terraform saved are still open
	}
	if rapid.IntRange(0, 2).Draw(t, "reach the directory another way before applying again") == 0 {
		m.AnotherPath(t)
	}
	m.step("apply %s %s", ws.Name, flags)
	if again := m.run(t, ws, flags, nil); again.planRefused {
		// The service refuses what the configuration says, now that the
		// provider knows more of it (a look at the project shows that it
		// has no filters, say): nothing applies, so nothing adopts or
		// names what the killed apply made. The create journal keeps it
		// for a later apply that plans, which may adopt or name it.
		for _, ids := range []map[int64]bool{ws.orphans, ws.unanswered, ws.unadoptable} {
			for id := range ids {
				m.leftovers[id], m.deferred[id] = true, true
			}
			clear(ids)
		}
		return
	}
	for _, id := range slices.Sorted(maps.Keys(ws.orphans)) {
		m.fail(t, "config %d, which the killed apply of %s created, was not adopted by the next apply", id, ws.Name)
	}
	for _, id := range slices.Sorted(maps.Keys(ws.unanswered)) {
		m.fail(t, "config %d, made by a create whose answer the killed provider never got, is held by no resource and "+
			"no warning of the next apply of %s named it", id, ws.Name)
	}
	for _, id := range slices.Sorted(maps.Keys(ws.unadoptable)) {
		if !m.isHeld(id) {
			m.fail(t, "config %d, which the killed apply of %s gave Terraform (the state did not keep it) or wrote to "+
				"without an answer, is held by no resource and no warning of the next apply named it", id, ws.Name)
		}
	}
	clear(ws.unadoptable)
	ws.openEntries = 0
}

// isHeld reports whether a resource holds config id.
func (m *Machine) isHeld(id int64) bool {
	for _, h := range m.slots() {
		if got, _, ok := idOf(h.s.inst); ok && got == id {
			return true
		}
	}
	return false
}

// noteOrphans records what a killed apply of ws left: configs it created
// that no state holds, given to Terraform by an apply that finished before
// the kill (the state did not keep them) or written to by the request whose
// answer a killed provider lost (unadoptable), or whose answer came to the
// provider of the apply under way (orphans, which the create journal
// holds), or never came (unanswered).
func (m *Machine) noteOrphans(ws *Workspace, before, after Snapshot, out *applied) {
	lost := out.lost
	if lost != nil && lost.Method == "POST" {
		ws.openEntries++
	}
	unanswered := lost.CreatedID()
	for id, rec := range after {
		if _, existed := before[id]; existed || rec.Deleted {
			continue
		}
		if m.isHeld(id) {
			continue
		}
		switch {
		case out.handed[id] || id == lost.WrittenID():
			ws.unadoptable[id] = true
		case id == unanswered:
			ws.unanswered[id] = true
		default:
			ws.orphans[id] = true
		}
	}
}

var (
	adoptedWarning  = regexp.MustCompile(`^Adopted .* (\d+), created by a killed run$`)
	leftoverWarning = regexp.MustCompile(`^.* (\d+) may be left over from a killed run$`)
)

// warned returns the config ids that warnings of diags matching re name.
func warned(diags []*tfprotov6.Diagnostic, re *regexp.Regexp) []int64 {
	var ids []int64
	for _, d := range diags {
		if d.Severity != tfprotov6.DiagnosticSeverityWarning {
			continue
		}
		if sub := re.FindStringSubmatch(d.Summary); sub != nil {
			if id, err := strconv.ParseInt(sub[1], 10, 64); err == nil {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// checkAdoptions checks the configs the apply's creates adopted: each was
// an orphan of a killed run of ws, and the resource that adopted it holds
// it unless its create failed. It returns them.
func (m *Machine) checkAdoptions(t *rapid.T, ws *Workspace, w planned, out *applied) map[int64]bool {
	adopted := map[int64]bool{}
	for i, diags := range out.diags {
		for _, id := range warned(diags, adoptedWarning) {
			s := ws.slots[i]
			if !ws.orphans[id] && !m.deferred[id] {
				m.fail(t, "%s adopted config %d, which no killed run of %s left", ws.address(s), id, ws.Name)
			}
			delete(m.deferred, id)
			// A create refused after the adoption leaves nothing held (what
			// the service lists is Check's).
			if got, _, ok := idOf(s.inst); !acctest.HasError(diags) && (!ok || got != id) {
				m.fail(t, "%s warned that it adopted config %d, but holds %v", ws.address(s), id, s.inst.Attrs()["id"])
			}
			if p := w.plans[i]; p == nil || p.Action() != "create" && p.Action() != "replace" {
				m.fail(t, "%s adopted config %d without a create", ws.address(s), id)
			}
			adopted[id] = true
			delete(ws.orphans, id)
			stats.Adopted.Add(1)
		}
	}
	return adopted
}

// noteLeftovers takes the configs that warnings of the apply name as left
// over from a killed run: those a killed provider's create made without an
// answer, and those Terraform got and did not save, may stay, no resource
// holding them.
func (m *Machine) noteLeftovers(ws *Workspace, out *applied) {
	for _, diags := range out.diags {
		for _, id := range warned(diags, leftoverWarning) {
			if ws.unanswered[id] || ws.unadoptable[id] {
				stats.Leftovers.Add(1)
				m.leftovers[id] = true
				delete(ws.unanswered, id)
				delete(ws.unadoptable, id)
			}
		}
	}
}

// adoptedCount counts the adoptions of an apply.
func adoptedCount(out *applied) int64 {
	n := 0
	for _, diags := range out.diags {
		n += len(warned(diags, adoptedWarning))
	}
	return int64(n)
}
