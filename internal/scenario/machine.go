package scenario

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
)

// Machine is one scenario: workspaces of config resources (slots) that
// share a project, which steps change, apply (whole, targeted, without a
// refresh, killed part-way), import and destroy, while the service changes
// behind their back; the invariants are checked after each step.
type Machine struct {
	env        *Env
	workspaces []*Workspace
	// dir is the working directory's path as the steps reach it (the real
	// one, a symlink to it), real its real path, and root where both are.
	dir, real, root string
	paths           int
	// leftovers are configs of a killed run that a later apply named in a
	// warning instead of adopting them, and released those a `terraform
	// state rm` or a removed block let go of (with their kind): the configs
	// the service may list that no resource holds.
	leftovers map[int64]bool
	released  map[int64]string
	// deferred are configs of a killed run whose next apply was refused at
	// plan time: a later apply may adopt them (or name them), and need not.
	deferred map[int64]bool
	// orders are the order resources, by kind, each in a workspace of its
	// own in the working directory (Order).
	orders map[string]*orderSlot
	log    []string
}

// Stats counts what the scenarios did, so that a run can tell how much of
// it converged rather than stopped at a refusal.
type Stats struct {
	Applies, Refused, Imports, Upgrades, Changes, Kills, Adopted, Leftovers, Versions, Orders atomic.Int64
	Released, ImportedElsewhere, Paths                                                        atomic.Int64
}

// stats are the counts of the scenarios of this process.
var stats Stats

// NewMachine returns a scenario of one to three workspaces of one or two
// resources each, in a working directory (with its .terraform) made in
// tempDir's new directory.
func NewMachine(t *rapid.T, env *Env, tempDir func() string) *Machine {
	root := tempDir()
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(filepath.Join(work, ".terraform"), 0o700); err != nil {
		t.Fatal(err)
	}
	return &Machine{env: env, workspaces: newWorkspaces(t), dir: work, real: work, root: root,
		leftovers: map[int64]bool{}, released: map[int64]string{}, deferred: map[int64]bool{}, orders: map[string]*orderSlot{}}
}

// journal is the create journal directory of ws, as its provider finds it
// from the working directory's path.
func (m *Machine) journal(ws *Workspace) string {
	return createonce.JournalDir(m.dir, ".terraform", ws.Name)
}

// Actions are the scenario's steps for rapid's Repeat; "" is the check
// after each.
func (m *Machine) Actions() map[string]func(*rapid.T) {
	actions := map[string]func(*rapid.T){
		"apply":            m.Apply,
		"destroy":          m.Destroy,
		"change":           m.ChangeOutOfBand,
		"import":           m.Import,
		"plan":             m.Plan,
		"state rm":         m.ReleaseFromState,
		"import elsewhere": m.ImportElsewhere,
		"path":             m.AnotherPath,
		"":                 m.Check,
	}
	if m.env.Local != nil {
		actions["upgrade"] = m.Upgrade
		actions["kill"] = m.KilledApply
		actions["version"] = m.SwitchVersion
		actions["order"] = m.Order
	}
	return actions
}

func (m *Machine) step(format string, args ...any) {
	m.log = append(m.log, fmt.Sprintf(format, args...))
}

// fail ends the scenario with what it was: the catalog, the workspaces as
// HCL, the steps so far.
func (m *Machine) fail(t *rapid.T, format string, args ...any) {
	t.Helper()
	t.Fatalf("%s\n\n%s", fmt.Sprintf(format, args...), m.Describe())
}

// Describe renders the scenario: each workspace's configuration as HCL,
// the plugin catalog and the steps taken.
func (m *Machine) Describe() string {
	var b strings.Builder
	b.WriteString("# The configuration:\n")
	b.WriteString(m.env.ProviderHCL())
	for _, ws := range m.workspaces {
		fmt.Fprintf(&b, "\n# Workspace %s:\n", ws.Name)
		for _, s := range ws.slots {
			if s.config != nil {
				b.WriteString(s.config.HCL(s.name))
			}
		}
	}
	for _, kind := range Kinds {
		if o := m.orders[kind]; o != nil {
			fmt.Fprintf(&b, "\n# The %s order's workspace:\n%s", kind, o.hcl)
		}
	}
	if m.env.Local != nil {
		fmt.Fprintf(&b, "\n# The service: version %v\n", m.env.Local.Version())
	}
	b.WriteString("\n# The plugin catalog (-plugins file):\n")
	b.WriteString(m.env.Catalog.JSON())
	b.WriteString("\n\n# The steps:\n")
	for i, l := range m.log {
		fmt.Fprintf(&b, "%d. %s\n", i+1, l)
	}
	return b.String()
}

func (m *Machine) core(t *rapid.T, srv *acctest.ProviderServer, kind string) *acctest.Core {
	c, err := acctest.NewCore(srv, TypeName(kind))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (m *Machine) configValue(t *rapid.T, c *acctest.Core, cfg *Config) tftypes.Value {
	if cfg == nil {
		return tftypes.Value{}
	}
	v, err := c.Config(cfg.Values())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// slots lists every resource of every workspace, with its workspace.
func (m *Machine) slots() []held {
	var out []held
	for _, ws := range m.workspaces {
		for _, s := range ws.slots {
			out = append(out, held{ws, s})
		}
	}
	return out
}

// held is a resource with its workspace.
type held struct {
	ws *Workspace
	s  *slot
}

func (h held) String() string { return h.ws.address(h.s) }

func (m *Machine) resetCounters() {
	if m.env.Local != nil {
		m.env.Local.ResetCounters()
	}
}

func (m *Machine) projectOf(p string) string {
	if p == "" {
		return m.env.ProjectID
	}
	return p
}

func (m *Machine) sameProject(a, b string) bool {
	norm := func(p string) string {
		if p == "@current" {
			return m.env.ProjectID
		}
		return p
	}
	return norm(a) == norm(b)
}

// idOf reads the config id and project of an instance.
func idOf(in acctest.Instance) (int64, string, bool) {
	attrs := in.Attrs()
	if attrs == nil {
		return 0, "", false
	}
	id, ok := intAttr(attrs["id"])
	if !ok {
		return 0, "", false
	}
	var project string
	_ = attrs["project_id"].As(&project)
	return id, project, true
}

// intAttr reads a known number attribute as an integer.
func intAttr(v tftypes.Value) (int64, bool) {
	if !v.IsKnown() || v.IsNull() {
		return 0, false
	}
	var f big.Float
	if err := v.As(&f); err != nil {
		return 0, false
	}
	n, acc := f.Int64()
	return n, acc == big.Exact
}

// Check runs after every step: no two resources, in any workspace, hold
// one config; and every config the service lists in the project is one
// that a resource holds, or a leftover a warning named, or one the user let
// go of, so nothing was created twice or left behind unannounced.
func (m *Machine) Check(t *rapid.T) {
	active, err := m.env.ActiveIDs(context.Background())
	if err != nil {
		m.fail(t, "listing the project: %v", err)
	}
	unheld := func(id int64) bool { _, let := m.released[id]; return m.env.Preexisting[id] || m.leftovers[id] || let }
	if problems := holdingProblems(m.slots(), active, unheld); len(problems) > 0 {
		m.fail(t, "%s", joinLines(problems))
	}
}

// holdingProblems lists where slots and the service's active configs break
// "no two resources hold one config, and the service lists only configs a
// resource holds or that may be held by none (mayBeUnheld)".
func holdingProblems(slots []held, active map[int64]bool, mayBeUnheld func(int64) bool) []string {
	var problems []string
	holder := map[int64]held{}
	for _, h := range slots {
		id, _, ok := idOf(h.s.inst)
		if !ok {
			continue
		}
		if other, taken := holder[id]; taken {
			problems = append(problems, fmt.Sprintf("%s and %s both hold config %d", other, h, id))
		}
		holder[id] = h
	}
	for _, id := range slices.Sorted(maps.Keys(active)) {
		if _, ok := holder[id]; !ok && !mayBeUnheld(id) {
			problems = append(problems, fmt.Sprintf("the service lists config %d, which no resource holds and no "+
				"warning named (created twice, or left behind)", id))
		}
	}
	return problems
}
