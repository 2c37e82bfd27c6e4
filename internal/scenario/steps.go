package scenario

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
)

// Apply changes the configuration of one resource (or writes one, now
// and then the same as another resource's, of any workspace) and applies
// its workspace, targeted or without a refresh now and then.
func (m *Machine) Apply(t *rapid.T) {
	ws := m.pick(t)
	s := pickSlot(t, ws, "resource")
	if m.env.MaxCreates > 0 && m.env.Creates >= m.env.MaxCreates {
		t.Skip("the scenario made its creates")
	}
	m.configure(t, ws, s)
	m.apply(t, ws, flagsGen(ws).Draw(t, "flags"))
}

// configure draws a new configuration of s: a change of its own, or one
// time in three (when there is one) another resource's of its kind, as
// workspaces of one configuration and copied blocks have.
func (m *Machine) configure(t *rapid.T, ws *Workspace, s *slot) {
	var same []held
	for _, h := range m.slots() {
		if h.s != s && h.s.kind == s.kind && h.s.config != nil {
			same = append(same, h)
		}
	}
	if len(same) > 0 && rapid.IntRange(0, 2).Draw(t, "copy another resource's configuration") == 0 {
		from := same[rapid.IntRange(0, len(same)-1).Draw(t, "copied from")]
		cp := *from.s.config
		s.config = &cp
		m.step("configure %s as %s: %s", ws.address(s), from, s.config)
	} else {
		s.config = configGen(m.env.Catalog, s.kind, s.config).Draw(t, "configuration of "+s.name)
		m.step("configure %s: %s", ws.address(s), s.config)
	}
	s.converged = false
}

// Destroy removes a resource from the configuration and applies.
func (m *Machine) Destroy(t *rapid.T) {
	ws := m.pick(t)
	s := pickSlot(t, ws, "resource")
	if s.config == nil {
		t.Skip("not configured")
	}
	s.config, s.converged = nil, false
	m.step("remove %s from the configuration", ws.address(s))
	m.apply(t, ws, flagsGen(ws).Draw(t, "flags"))
}

// Plan plans a workspace without applying (`terraform plan`, whose
// refresh is not kept): a resource whose last apply converged, with
// nothing changed since, plans nothing.
func (m *Machine) Plan(t *rapid.T) {
	ws := m.pick(t)
	flags := flagsGen(ws).Draw(t, "flags")
	m.step("plan %s %s", ws.Name, flags)
	w := m.plan(t, ws, flags)
	for i, p := range w.plans {
		s := ws.slots[i]
		if p == nil || !s.converged {
			continue
		}
		if p.Action() != "noop" || acctest.HasError(p.Diagnostics) {
			m.fail(t, "a plan after a converged apply plans %s for %s%s%s", p.Action(), ws.address(s),
				acctest.DiagnosticsText(p.Diagnostics), planDiff(p))
		}
	}
}

// Import forgets a resource's state and imports its config again, by id,
// by "<project>/<id>" (the project's id or "@current") or by identity,
// then applies its workspace: an import never replaces.
func (m *Machine) Import(t *rapid.T) {
	ws := m.pick(t)
	candidates := slices.DeleteFunc(slices.Clone(ws.slots), func(s *slot) bool { return s.config == nil || !s.inst.Exists() })
	if len(candidates) == 0 {
		t.Skip("nothing to import")
	}
	s := candidates[rapid.IntRange(0, len(candidates)-1).Draw(t, "resource")]
	id, project, _ := idOf(s.inst)
	ctx := context.Background()
	if rec, err := m.env.API.Get(ctx, m.projectOf(project), Collection(s.kind), id); err != nil || rec.Deleted {
		t.Skip("the config is gone from the service: nothing to import")
	}
	journal := m.journal(ws)
	srv := m.env.Server(journal)
	defer createonce.Release(journal, true)
	c := m.core(t, srv, s.kind)
	project = rapid.SampledFrom([]string{"", m.env.ProjectID, "@current"}).Draw(t, "import project")
	var (
		inst  acctest.Instance
		diags []*tfprotov6.Diagnostic
		err   error
		how   string
	)
	m.resetCounters()
	if rapid.Bool().Draw(t, "by identity") {
		identity := map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.Number, id)}
		if project != "" {
			identity["project_id"] = tftypes.NewValue(tftypes.String, project)
		}
		how = fmt.Sprintf("identity {project_id = %q, id = %d}", project, id)
		inst, diags, err = c.ImportByIdentity(ctx, identity)
	} else {
		importID := strconv.FormatInt(id, 10)
		if project != "" {
			importID = project + "/" + importID
		}
		how = fmt.Sprintf("id %q", importID)
		inst, diags, err = c.ImportByID(ctx, importID)
	}
	if err != nil || acctest.HasError(diags) {
		m.fail(t, "import of %s by %s: %v%s", ws.address(s), how, err, acctest.DiagnosticsText(diags))
	}
	if counts := m.env.Counters(); counts != nil && counts["retrieve"]+counts["list"] > 2 {
		m.fail(t, "an import made %s", describeCounters(counts))
	}
	s.inst, s.converged = inst, false
	s.read(m.env.Catalog)
	stats.Imports.Add(1)
	m.step("import %s by %s", ws.address(s), how)
	m.apply(t, ws, Full)
}
