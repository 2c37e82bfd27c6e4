package scenario

import (
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// Workspace is one state of config resources. The scenario's workspaces
// are those of one working directory and share the project, as `terraform
// workspace new` does, and each has a create journal of its own (keyed by
// working directory and workspace).
type Workspace struct {
	Name  string
	slots []*slot
	// orphans are configs that killed runs of the workspace created and
	// never gave Terraform, which no state can hold: the next apply must
	// adopt them.
	orphans map[int64]bool
	// unadoptable are configs of a killed run that no state holds but that
	// the provider cannot prove so: given to Terraform by an apply finished
	// before the kill (the state written then was older), or written to by
	// the killed provider's last request, whose answer never came. The next
	// apply that meets their journal entry makes a config anew and must
	// name them in a warning.
	unadoptable map[int64]bool
	// unanswered are configs that creates of a killed provider made
	// without an answer: the next apply that meets their journal entry
	// must name them in a warning.
	unanswered map[int64]bool
	// openEntries counts the creates a killed provider sent without an
	// answer, which the next apply looks for (listing the project).
	openEntries int
}

// slot is one resource of a workspace: its configuration (nil: not in
// the configuration) and what Terraform keeps of it.
type slot struct {
	name   string
	kind   string
	config *Config
	inst   acctest.Instance
	// converged: the last apply of the resource succeeded and its next
	// plan was empty, and nothing changed since.
	converged bool
	// drift: the service changed the config (or what the plan of it
	// depends on) since the state last read it.
	drift bool
	// secretsRead are the secret keys of the config's plugin when the
	// state last read it, which a plan without a refresh goes by.
	secretsRead []string
}

// Flags are the options of a plan or apply: -target (nil: every
// resource) and -refresh=false.
type Flags struct {
	Target  []string
	Refresh bool
}

// Full is a plain plan or apply.
var Full = Flags{Refresh: true}

func (f Flags) String() string {
	var opts []string
	for _, t := range f.Target {
		opts = append(opts, "-target="+t)
	}
	if !f.Refresh {
		opts = append(opts, "-refresh=false")
	}
	return strings.Join(opts, " ")
}

// targets reports whether the flags plan s.
func (f Flags) targets(s *slot) bool {
	return f.Target == nil || slices.Contains(f.Target, s.name)
}

// flagsGen draws the options of an apply or plan of ws: one time in four
// a -target of some of its resources, one time in four -refresh=false.
func flagsGen(ws *Workspace) *rapid.Generator[Flags] {
	return rapid.Custom(func(t *rapid.T) Flags {
		f := Flags{Refresh: rapid.IntRange(0, 3).Draw(t, "refresh") > 0}
		if rapid.IntRange(0, 3).Draw(t, "targeted") == 0 {
			names := make([]string, len(ws.slots))
			for i, s := range ws.slots {
				names[i] = s.name
			}
			f.Target = rapid.SliceOfNDistinct(rapid.SampledFrom(names), 1, len(names), func(n string) string { return n }).
				Draw(t, "targets")
			slices.Sort(f.Target)
		}
		return f
	})
}

// maxResources is the most resources a workspace has.
const maxResources = 2

// newWorkspaces draws the scenario's workspaces: one to three, of one or
// two resources of drawn kinds.
func newWorkspaces(t *rapid.T) []*Workspace {
	names := []string{"default", "blue", "green"}
	n := rapid.IntRange(1, len(names)).Draw(t, "workspaces")
	out := make([]*Workspace, n)
	for i := range n {
		ws := &Workspace{Name: names[i], orphans: map[int64]bool{}, unadoptable: map[int64]bool{}, unanswered: map[int64]bool{}}
		for j := range rapid.IntRange(1, maxResources).Draw(t, "resources of "+ws.Name) {
			kind := rapid.SampledFrom(Kinds).Draw(t, fmt.Sprintf("kind of %s.r%d", ws.Name, j))
			ws.slots = append(ws.slots, &slot{name: fmt.Sprint("r", j), kind: kind, converged: true})
		}
		out[i] = ws
	}
	return out
}

// address names a resource of a workspace in failure messages.
func (ws *Workspace) address(s *slot) string {
	return fmt.Sprintf("%s.%s", ws.Name, s.name)
}

// pick draws one of the scenario's workspaces, by name in the log.
func (m *Machine) pick(t *rapid.T) *Workspace {
	names := make([]string, len(m.workspaces))
	for i, ws := range m.workspaces {
		names[i] = ws.Name
	}
	return m.workspaces[slices.Index(names, rapid.SampledFrom(names).Draw(t, "workspace"))]
}

// pickSlot draws one of ws's resources, by name in the log.
func pickSlot(t *rapid.T, ws *Workspace, label string) *slot {
	names := make([]string, len(ws.slots))
	for i, s := range ws.slots {
		names[i] = s.name
	}
	return ws.slots[slices.Index(names, rapid.SampledFrom(names).Draw(t, label))]
}

// read notes that the state of s was just read from the service: the
// plugin's secret keys as they are now.
func (s *slot) read(cat *Catalog) {
	if plugin, ok := intAttr(s.inst.Attrs()["plugin"]); ok {
		s.secretsRead = cat.SecretKeys(plugin)
	}
}
