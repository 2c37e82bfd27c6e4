package scenario

import (
	"context"
	"maps"
	"slices"
	"strconv"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
)

// ReleaseFromState lets go of a resource's config as users do when they
// hand it to another state: `terraform state rm`, which calls no provider,
// or a removed block with destroy = false, whose plan refreshes the
// resource first. The resource stays in the configuration, so the next
// apply of its workspace creates it anew: it must never take the config
// let go of, which no resource holds now and which another state may
// import (ImportElsewhere).
func (m *Machine) ReleaseFromState(t *rapid.T) {
	if !m.release(t, m.pick(t)) {
		t.Skip("nothing in the state")
	}
}

// release is ReleaseFromState in ws; false: its state holds nothing.
func (m *Machine) release(t *rapid.T, ws *Workspace) bool {
	held := slices.DeleteFunc(slices.Clone(ws.slots), func(s *slot) bool { return !s.inst.Exists() })
	if len(held) == 0 {
		return false
	}
	s := held[rapid.IntRange(0, len(held)-1).Draw(t, "resource")]
	id, _, _ := idOf(s.inst)
	how := "terraform state rm"
	if rapid.Bool().Draw(t, "a removed block") {
		how = "a removed block (destroy = false)"
		journal := m.journal(ws)
		srv := m.env.Server(journal)
		_, diags, err := m.core(t, srv, s.kind).Refresh(context.Background(), s.inst)
		createonce.Release(journal, true)
		if err != nil || acctest.HasError(diags) {
			m.fail(t, "the refresh of %s for a removed block failed: %v%s", ws.address(s), err, acctest.DiagnosticsText(diags))
		}
	}
	s.inst, s.converged, s.drift = acctest.Instance{}, false, false
	m.released[id] = s.kind
	stats.Released.Add(1)
	m.step("%s lets go of %s (config %d)", how, ws.address(s), id)
	return true
}

// ImportElsewhere imports a config let go of (ReleaseFromState) into a
// resource of any workspace that holds none, as a user moving it to
// another state does, and applies that workspace: from then on that
// resource holds it, and no create may take it.
func (m *Machine) ImportElsewhere(t *rapid.T) {
	ids := slices.Sorted(maps.Keys(m.released))
	if len(ids) == 0 {
		t.Skip("no config let go of")
	}
	id := ids[rapid.IntRange(0, len(ids)-1).Draw(t, "config")]
	kind := m.released[id]
	if rec, err := m.env.API.Get(context.Background(), m.env.ProjectID, Collection(kind), id); err != nil || rec.Deleted {
		t.Skip("the config is gone from the service")
	}
	var into []held
	for _, h := range m.slots() {
		if !h.s.inst.Exists() && h.s.config != nil && h.s.kind == kind {
			into = append(into, h)
		}
	}
	if len(into) == 0 {
		t.Skip("no resource to import it into")
	}
	h := into[rapid.IntRange(0, len(into)-1).Draw(t, "into")]
	journal := m.journal(h.ws)
	srv := m.env.Server(journal)
	inst, diags, err := m.core(t, srv, h.s.kind).ImportByID(context.Background(), strconv.FormatInt(id, 10))
	createonce.Release(journal, true)
	if err != nil || acctest.HasError(diags) {
		m.fail(t, "import of config %d into %s: %v%s", id, h, err, acctest.DiagnosticsText(diags))
	}
	h.s.inst, h.s.converged = inst, false
	h.s.read(m.env.Catalog)
	delete(m.released, id)
	stats.ImportedElsewhere.Add(1)
	m.step("import config %d, let go of, into %s", id, h)
	m.apply(t, h.ws, Full)
}
