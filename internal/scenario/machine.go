package scenario

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// Machine is one scenario: a workspace of config resources (slots) that
// steps change, apply, import and destroy, with the invariants checked
// after each.
type Machine struct {
	env   *Env
	slots []*slot
	// converged is whether the last apply succeeded and nothing changed
	// since, so that a plan must be empty.
	converged bool
	log       []string
}

// Stats counts what the scenarios did, so that a run can tell how much of
// it converged rather than stopped at a refusal.
type Stats struct {
	Applies, Refused, Imports, Upgrades, Changes atomic.Int64
}

// stats are the counts of the scenarios of this process.
var stats Stats

// slot is one resource of the workspace: its configuration (nil: not in
// the configuration) and what Terraform keeps of it.
type slot struct {
	name   string
	kind   string
	config *Config
	inst   acctest.Instance
}

// NewMachine returns a scenario of one or two resources of generated kinds.
func NewMachine(t *rapid.T, env *Env) *Machine {
	m := &Machine{env: env, converged: true}
	n := rapid.IntRange(1, 2).Draw(t, "resources")
	for i := range n {
		kind := rapid.SampledFrom(Kinds).Draw(t, fmt.Sprint("kind of r", i))
		m.slots = append(m.slots, &slot{name: fmt.Sprint("r", i), kind: kind})
	}
	return m
}

// Actions are the scenario's steps for rapid's Repeat; "" is the check
// after each.
func (m *Machine) Actions() map[string]func(*rapid.T) {
	actions := map[string]func(*rapid.T){
		"apply":   m.Apply,
		"destroy": m.Destroy,
		"change":  m.ChangeOutOfBand,
		"import":  m.Import,
		"refresh": m.Refresh,
		"":        m.Check,
	}
	if m.env.Local != nil {
		actions["upgrade"] = m.Upgrade
	}
	return actions
}

func (m *Machine) step(format string, args ...any) {
	m.log = append(m.log, fmt.Sprintf(format, args...))
}

// fail ends the scenario with what it was: the catalog, the workspace as
// HCL, the steps so far.
func (m *Machine) fail(t *rapid.T, format string, args ...any) {
	t.Helper()
	t.Fatalf("%s\n\n%s", fmt.Sprintf(format, args...), m.Describe())
}

// Describe renders the scenario: the configuration as HCL, the plugin
// catalog and the steps taken.
func (m *Machine) Describe() string {
	var b strings.Builder
	b.WriteString("# The configuration:\n")
	b.WriteString(m.env.ProviderHCL())
	for _, s := range m.slots {
		if s.config != nil {
			b.WriteString("\n" + s.config.HCL(s.name))
		}
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

// Apply changes the configuration of one resource (or writes one) and
// applies the workspace.
func (m *Machine) Apply(t *rapid.T) {
	s := rapid.SampledFrom(m.slots).Draw(t, "resource")
	if m.env.MaxCreates > 0 && m.env.Creates >= m.env.MaxCreates {
		t.Skip("the scenario made its creates")
	}
	s.config = configGen(m.env.Catalog, s.kind, s.config).Draw(t, "configuration of "+s.name)
	m.step("configure %s: %s", s.name, s.config)
	m.apply(t, "")
}

// Destroy removes a resource from the configuration and applies.
func (m *Machine) Destroy(t *rapid.T) {
	s := rapid.SampledFrom(m.slots).Draw(t, "resource")
	if s.config == nil {
		t.Skip("not configured")
	}
	s.config = nil
	m.step("remove %s from the configuration", s.name)
	m.apply(t, "")
}

// Refresh plans without applying: once converged, nothing is planned.
func (m *Machine) Refresh(t *rapid.T) {
	m.step("plan")
	plans, _ := m.plan(t)
	if !m.converged {
		return
	}
	for i, p := range plans {
		if p != nil && p.Action() != "noop" {
			m.fail(t, "a plan after a converged apply plans %s for %s%s", p.Action(), m.slots[i].name, planDiff(p))
		}
	}
}

// plan runs a plan walk: a new provider refreshes every resource in state
// and plans each. It returns the plans (nil for a slot with nothing) and
// whether any was refused.
func (m *Machine) plan(t *rapid.T) ([]*acctest.Plan, bool) {
	ctx := context.Background()
	srv := m.env.Server()
	m.resetCounters()
	refused := false
	n := int64(0) // the resources in state, which the refresh reads
	for _, s := range m.slots {
		if !s.inst.Exists() {
			continue
		}
		n++
		next, diags, err := m.core(t, srv, s.kind).Refresh(ctx, s.inst)
		if err != nil {
			m.fail(t, "refresh of %s: %v", s.name, err)
		}
		if acctest.HasError(diags) {
			m.fail(t, "refresh of %s failed:%s", s.name, acctest.DiagnosticsText(diags))
		}
		s.inst = next
	}
	plans := make([]*acctest.Plan, len(m.slots))
	for i, s := range m.slots {
		if s.config == nil && !s.inst.Exists() {
			continue
		}
		c := m.core(t, srv, s.kind)
		p, err := c.Plan(ctx, s.inst, m.configValue(t, c, s.config))
		if err != nil {
			m.fail(t, "plan of %s: %v", s.name, err)
		}
		plans[i] = p
		if acctest.HasError(p.Diagnostics) {
			refused = true
		}
	}
	counts := m.env.Counters()
	if counts != nil {
		if writes := counts["create"] + counts["update"] + counts["delete"]; writes != 0 {
			m.fail(t, "a plan wrote to the service: %s", describeCounters(counts))
		}
		// Besides the refresh, a plan of creates looks at one record of each
		// collection once, while nothing told whether the service stores
		// configs.
		budget := 2*n + 1 + int64(len(Kinds))
		if reads := counts["list"] + counts["retrieve"]; reads > budget {
			m.fail(t, "a plan of %d resources made %d reads (budget %d): %s", n, reads, budget, describeCounters(counts))
		}
	}
	return plans, refused
}

func (m *Machine) resetCounters() {
	if m.env.Local != nil {
		m.env.Local.ResetCounters()
	}
}

// apply runs `terraform apply`: a plan walk, then an apply walk of what it
// planned, then checks the outcome against the service's judgment of the
// values, and that a new plan is empty. imported names a slot just
// imported, which must not be replaced.
func (m *Machine) apply(t *rapid.T, imported string) {
	ctx := context.Background()
	plans, refused := m.plan(t)
	m.converged = false
	if refused {
		for i, p := range plans {
			if p == nil || !acctest.HasError(p.Diagnostics) {
				continue
			}
			m.checkRefusal(t, m.slots[i], p.Diagnostics, "plan")
		}
		m.step("plan refused")
		stats.Refused.Add(1)
		return
	}
	// What the service makes of each configuration that will be written.
	accepts := make([]bool, len(m.slots))
	reasons := make([]string, len(m.slots))
	for i, p := range plans {
		if p == nil {
			continue
		}
		switch p.Action() {
		case "create", "update", "replace":
			ok, why, err := m.env.Accepts(ctx, m.slots[i].config)
			if err != nil {
				m.fail(t, "asking the service about %s: %v", m.slots[i].name, err)
			}
			accepts[i], reasons[i] = ok, why
			if ok && p.Action() != "update" {
				m.env.Creates++
			}
		}
		if p.Action() == "replace" {
			s := m.slots[i]
			if s.name == imported || !m.replaceable(s) {
				m.fail(t, "%s is planned for replacement, but neither its plugin nor its project changed", s.name)
			}
		}
	}

	srv := m.env.Server()
	m.resetCounters()
	var creates, updates, deletes int64
	var destroyed []func()
	failed := false
	for i, p := range plans {
		if p == nil || p.Action() == "noop" {
			continue
		}
		s := m.slots[i]
		action := p.Action()
		next, diags, err := m.core(t, srv, s.kind).Apply(ctx, p)
		if err != nil {
			m.fail(t, "apply of %s (%s): %v", s.name, action, err)
		}
		s.inst = next
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
				m.fail(t, "destroy of %s failed:%s", s.name, acctest.DiagnosticsText(diags))
			}
			m.checkRefusal(t, s, diags, "apply")
			m.step("apply of %s (%s) refused", s.name, action)
			continue
		}
		if action != "delete" && !accepts[i] {
			m.fail(t, "the provider applied %s (%s), which the service refuses: %s", s.name, action, reasons[i])
		}
		if action == "delete" {
			destroyed = append(destroyed, func() { m.checkDeleted(t, s.kind, p.Prior) })
		}
		m.step("applied %s (%s)", s.name, action)
	}
	if counts := m.env.Counters(); counts != nil && !failed {
		// A create may send its settings in a PATCH once the config
		// exists (until the service has shown that it stores configs).
		if counts["create"] != creates || counts["update"] > updates+deletes+creates || counts["list"] != 0 ||
			counts["retrieve"] > creates+updates {
			m.fail(t, "the apply of %d creates, %d updates and %d deletes made %s", creates, updates, deletes, describeCounters(counts))
		}
	}
	for _, check := range destroyed {
		check()
	}
	if failed {
		stats.Refused.Add(1)
		return
	}
	stats.Applies.Add(1)
	// The next plan is empty.
	again, refusedAgain := m.plan(t)
	for i, p := range again {
		if p == nil {
			continue
		}
		if refusedAgain || p.Action() != "noop" {
			m.fail(t, "after a successful apply, the next plan of %s is %s%s%s",
				m.slots[i].name, p.Action(), acctest.DiagnosticsText(p.Diagnostics), planDiff(p))
		}
	}
	m.converged = true
}

// checkRefusal checks a refused plan or apply of s: the service refuses the
// values too (or the provider refuses plugin settings the plugin's schema
// disagrees with), and the error names the attribute.
func (m *Machine) checkRefusal(t *rapid.T, s *slot, diags []*tfprotov6.Diagnostic, when string) {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError && d.Attribute == nil {
			m.fail(t, "the %s of %s was refused without naming an attribute:%s", when, s.name, acctest.DiagnosticsText(diags))
		}
	}
	if settingsPolicy(diags) {
		return
	}
	if s.config == nil {
		m.fail(t, "the %s of %s's removal was refused:%s", when, s.name, acctest.DiagnosticsText(diags))
	}
	ok, _, err := m.env.Accepts(context.Background(), s.config)
	if err != nil {
		m.fail(t, "asking the service about %s: %v", s.name, err)
	}
	if ok {
		m.fail(t, "the %s of %s was refused, but the service accepts its values:%s", when, s.name, acctest.DiagnosticsText(diags))
	}
}

// settingsPolicy reports whether every error is the provider's own rule on
// plugin settings: secret keys belong in secret_config_wo, the others in
// config, as the plugin's schema says (which an upgrade may change), and no
// key in both.
func settingsPolicy(diags []*tfprotov6.Diagnostic) bool {
	policy := []string{"Secret setting in config", "Non-secret setting in secret_config_wo", "Setting in both config and secret_config_wo"}
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError && !slices.Contains(policy, d.Summary) {
			return false
		}
	}
	return true
}

// replaceable reports whether s's configuration may replace its config:
// another plugin, or another project (the project's id and "@current" are
// one project).
func (m *Machine) replaceable(s *slot) bool {
	attrs := s.inst.Attrs()
	if s.config == nil || attrs == nil {
		return true
	}
	if p, ok := intAttr(attrs["plugin"]); !ok || p != s.config.Plugin {
		return true
	}
	var project string
	_ = attrs["project_id"].As(&project)
	want := m.env.Project
	if s.config.ProjectID != nil {
		want = *s.config.ProjectID
	}
	return !m.sameProject(project, want)
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

// checkDeleted checks that a destroyed config is deleted on the service
// (the service's DELETE only disables).
func (m *Machine) checkDeleted(t *rapid.T, kind string, prior acctest.Instance) {
	id, project, ok := idOf(prior)
	if !ok {
		return
	}
	rec, err := m.env.API.Get(context.Background(), m.projectOf(project), Collection(kind), id)
	if err == nil && !rec.Deleted {
		m.fail(t, "config %d was destroyed but the service has it active", id)
	}
}

func (m *Machine) projectOf(p string) string {
	if p == "" {
		return m.env.ProjectID
	}
	return p
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

// Check runs after every step: every config the service lists in the
// project is one that a resource holds, so nothing was created twice or
// left behind.
func (m *Machine) Check(t *rapid.T) {
	active, err := m.env.ActiveIDs(context.Background())
	if err != nil {
		m.fail(t, "listing the project: %v", err)
	}
	held := map[int64]bool{}
	for _, s := range m.slots {
		if id, _, ok := idOf(s.inst); ok {
			held[id] = true
		}
	}
	for id := range active {
		if !held[id] && !m.env.Preexisting[id] {
			m.fail(t, "the service lists config %d, which no resource holds (created twice, or left behind)", id)
		}
	}
}

// Import forgets a resource's state and imports its config again, by id,
// by "<project>/<id>" (the project's id or "@current") or by identity,
// then applies: an import never replaces.
func (m *Machine) Import(t *rapid.T) {
	candidates := slices.DeleteFunc(slices.Clone(m.slots), func(s *slot) bool { return s.config == nil || !s.inst.Exists() })
	if len(candidates) == 0 {
		t.Skip("nothing to import")
	}
	s := rapid.SampledFrom(candidates).Draw(t, "resource")
	id, project, _ := idOf(s.inst)
	ctx := context.Background()
	if rec, err := m.env.API.Get(ctx, m.projectOf(project), Collection(s.kind), id); err != nil || rec.Deleted {
		t.Skip("the config is gone from the service: nothing to import")
	}
	c := m.core(t, m.env.Server(), s.kind)
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
		m.fail(t, "import of %s by %s: %v%s", s.name, how, err, acctest.DiagnosticsText(diags))
	}
	if counts := m.env.Counters(); counts != nil && counts["retrieve"]+counts["list"] > 2 {
		m.fail(t, "an import made %s", describeCounters(counts))
	}
	s.inst = inst
	stats.Imports.Add(1)
	m.step("import %s by %s", s.name, how)
	m.apply(t, s.name)
}

// ChangeOutOfBand changes a config on the service behind Terraform's back:
// its text, flags, order, filters or settings, a DELETE (which disables),
// or a soft delete.
func (m *Machine) ChangeOutOfBand(t *rapid.T) {
	candidates := slices.DeleteFunc(slices.Clone(m.slots), func(s *slot) bool { return !s.inst.Exists() })
	if len(candidates) == 0 {
		t.Skip("nothing to change")
	}
	s := rapid.SampledFrom(candidates).Draw(t, "resource")
	id, project, _ := idOf(s.inst)
	project = m.projectOf(project)
	ctx := context.Background()
	coll := Collection(s.kind)
	change := rapid.SampledFrom([]string{"name", "description", "enabled", "order", "filters", "settings", "disable", "delete"}).
		Draw(t, "change")
	var err error
	switch change {
	case "disable":
		err = m.env.API.Delete(ctx, project, coll, id)
	case "delete":
		_, err = m.env.API.Update(ctx, project, coll, id, client.RecordInput{Deleted: client.Some(true)})
	default:
		in := outOfBandGen(m.env.Catalog, change, s.config).Draw(t, change)
		_, err = m.env.API.Update(ctx, project, coll, id, in)
	}
	m.step("change %s on the service: %s (%v)", s.name, change, err)
	stats.Changes.Add(1)
	m.converged = false
}

// Upgrade changes a plugin as an upgrade does. A plan after it is empty:
// what the plugin shows is the service's to change; only plugin settings
// the new schema puts on the other side (secret or not) are refused.
func (m *Machine) Upgrade(t *rapid.T) {
	p := rapid.SampledFrom(m.env.Catalog.Plugins).Draw(t, "plugin")
	next := upgradeGen(p).Draw(t, "upgrade")
	if err := m.env.Local.SetPlugin(next); err != nil {
		m.fail(t, "upgrading plugin %d: %v", p.ID, err)
	}
	i := slices.IndexFunc(m.env.Catalog.Plugins, func(q localapi.Plugin) bool { return q.ID == p.ID })
	m.env.Catalog.Plugins[i] = next
	m.step("upgrade plugin %d", p.ID)
	stats.Upgrades.Add(1)
	plans, refused := m.plan(t)
	if !m.converged {
		return
	}
	for i, pl := range plans {
		if pl == nil {
			continue
		}
		if refused && acctest.HasError(pl.Diagnostics) && settingsPolicy(pl.Diagnostics) {
			m.converged = false
			continue
		}
		if pl.Action() == "update" && ownTextRevealed(pl, m.slots[i].config, p) {
			m.converged = false
			continue
		}
		if pl.Action() != "noop" || acctest.HasError(pl.Diagnostics) {
			m.fail(t, "after plugin %d's upgrade, %s plans %s%s%s", p.ID, m.slots[i].name, pl.Action(),
				acctest.DiagnosticsText(pl.Diagnostics), planDiff(pl))
		}
	}
}

// planDiff renders the attributes a plan changes, prior and planned.
func planDiff(p *acctest.Plan) string {
	prior, planned := p.Prior.Attrs(), map[string]tftypes.Value{}
	if p.Planned.Type() != nil && !p.Planned.IsNull() {
		_ = p.Planned.As(&planned)
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(planned)) {
		if old, ok := prior[name]; !ok || !old.Equal(planned[name]) {
			fmt.Fprintf(&b, "\n  %s: %v -> %v", name, prior[name], planned[name])
		}
	}
	return b.String()
}

// ownTextRevealed reports whether a plan after plugin p's upgrade only
// changes a name or description that the service showed the same for the
// config's own text and the plugin's. The service shows `name or
// plugin.name`, so until the plugin changes the provider cannot tell them
// apart: own text equal to the plugin's, where the configuration leaves it
// out or sets it blank, is handed back to the plugin; configured text equal
// to the plugin's, which nothing sent since the service showed it, is sent.
// Either way the plan restores what the configuration says.
func ownTextRevealed(pl *acctest.Plan, cfg *Config, p localapi.Plugin) bool {
	prior := pl.Prior.Attrs()
	planned := map[string]tftypes.Value{}
	if cfg == nil || prior == nil || pl.Planned.As(&planned) != nil {
		return false
	}
	for name, v := range planned {
		if v.Equal(prior[name]) || name == "updated_at" {
			continue
		}
		var was string
		_ = prior[name].As(&was)
		switch {
		case name == "name" && handsBack(cfg.Name, v) && p.Name != nil && was == *p.Name,
			name == "name" && cfg.Name != nil && handsBack(cfg.Name, v) && p.Name != nil && python.Strip(*cfg.Name) == *p.Name:
		case name == "description" && handsBack(cfg.Description, v) && p.Description != nil && was == *p.Description,
			name == "description" && cfg.Description != nil && handsBack(cfg.Description, v) && p.Description != nil &&
				python.Strip(*cfg.Description) == *p.Description:
		default:
			return false
		}
	}
	return true
}

// handsBack reports whether planned is what a configuration asks for once
// the plugin's text no longer stands for it: handed back to the plugin
// where the configuration leaves it out (planned unknown: sent as null) or
// sets it blank, or the configured text itself where that was the plugin's
// (the service showed it, so nothing was sent; now it must be).
func handsBack(configured *string, planned tftypes.Value) bool {
	if configured == nil {
		return !planned.IsKnown()
	}
	var s string
	return planned.IsKnown() && planned.As(&s) == nil && s == *configured
}
