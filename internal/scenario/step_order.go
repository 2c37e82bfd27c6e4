package scenario

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
)

// orderSlot is the order resource of one kind, in a workspace of its own
// (orders-KIND) of the working directory:
// pipeline_KIND_order over configs the scenario's resources hold.
type orderSlot struct {
	inst acctest.Instance
	// hcl is its configuration as last applied.
	hcl string
}

// Order applies the order resource of a drawn kind over some of the
// project's active configs of that kind whose resources leave order to the
// service, in a drawn sequence, the others following a drawn policy
// (unlisted_configs). The service changes only as its plan says, for every
// config of the project, named or not: a config the plan's orders hold
// moves to the order they show, no other moves, nothing else of any
// config changes. With config ids that are plugin ids of other configs,
// a rearrange keyed by plugin id (versions B and C) would move others.
// Its next plan is empty; a config resource that sets order and was moved
// has drifted.
func (m *Machine) Order(t *rapid.T) {
	ctx := context.Background()
	kind := rapid.SampledFrom(Kinds).Draw(t, "kind of the order")
	before, err := m.env.Snapshot(ctx, nil)
	if err != nil {
		m.fail(t, "reading the project: %v", err)
	}
	var candidates []int64
	for _, id := range slices.Sorted(maps.Keys(before)) {
		if rec := before[id]; !rec.Deleted && m.kindOfPlugin(rec.Plugin) == kind && !m.setsOrder(id) {
			candidates = append(candidates, id)
		}
	}
	if len(candidates) == 0 {
		t.Skip("no config of the kind leaves its order to the service")
	}
	ids := rapid.Permutation(candidates).Draw(t, "sequence")
	ids = ids[:rapid.IntRange(1, len(ids)).Draw(t, "configs listed")]
	policy := rapid.SampledFrom([]string{"last", "keep"}).Draw(t, "unlisted_configs")
	o := m.orders[kind]
	if o == nil {
		o = &orderSlot{}
		m.orders[kind] = o
	}
	o.hcl = orderHCL(kind, ids, policy)
	m.step("order %s: config_ids = %v, unlisted_configs = %q", kind, ids, policy)

	journal := m.journal(&Workspace{Name: "orders-" + kind})
	srv := m.env.Server(journal)
	defer createonce.Release(journal, true)
	c, err := acctest.NewCore(srv, orderTypeName(kind))
	if err != nil {
		t.Fatal(err)
	}
	if o.inst.Exists() {
		next, diags, err := c.Refresh(ctx, o.inst)
		if err != nil || acctest.HasError(diags) {
			m.fail(t, "refresh of the %s order: %v%s", kind, err, acctest.DiagnosticsText(diags))
		}
		o.inst = next
	}
	elems := make([]tftypes.Value, len(ids))
	for i, id := range ids {
		elems[i] = tftypes.NewValue(tftypes.Number, id)
	}
	config, err := c.Config(map[string]tftypes.Value{
		"config_ids":       tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, elems),
		"unlisted_configs": tftypes.NewValue(tftypes.String, policy),
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Plan(ctx, o.inst, config)
	if err != nil || acctest.HasError(p.Diagnostics) {
		m.fail(t, "plan of the %s order: %v%s", kind, err, acctest.DiagnosticsText(p.Diagnostics))
	}
	planned, known := plannedOrders(p.Planned)
	if !known && p.Action() != "create" {
		m.fail(t, "the plan of the %s order (%s) does not know its orders: %v", kind, p.Action(), p.Planned)
	}
	next, diags, err := c.Apply(ctx, p)
	if err != nil || acctest.HasError(diags) {
		m.fail(t, "apply of the %s order: %v%s", kind, err, acctest.DiagnosticsText(diags))
	}
	o.inst = next
	after, err := m.env.Snapshot(ctx, before)
	if err != nil {
		m.fail(t, "reading the project: %v", err)
	}
	var problems []string
	if !known {
		// A create plans its orders as known after apply: the orders the
		// resource reports must be the sequence it was given.
		if planned, known = plannedOrders(next.State); !known {
			m.fail(t, "the created %s order does not report its orders: %v", kind, next.State)
		}
		problems = Sequenced(ids, policy, planned, before)
	}
	if problems = append(problems, OrdersAsPlanned(planned, before, after)...); len(problems) > 0 {
		m.fail(t, "the apply of the %s order changed the service other than as its plan said (orders %v):\n  %s",
			kind, planned, joinLines(problems))
	}
	stats.Orders.Add(1)
	m.noteMoved(before, after)

	again, diags, err := c.Refresh(ctx, o.inst)
	if err != nil || acctest.HasError(diags) {
		m.fail(t, "refresh of the %s order after its apply: %v%s", kind, err, acctest.DiagnosticsText(diags))
	}
	p, err = c.Plan(ctx, again, config)
	if err != nil || acctest.HasError(p.Diagnostics) || p.Action() != "noop" {
		m.fail(t, "after the apply of the %s order, its next plan is %v: %v%s", kind, p.Action(), err, acctest.DiagnosticsText(p.Diagnostics))
	}
}

// OrdersAsPlanned lists where after differs from before other than as an
// order resource's plan showed: every config that orders (its planned
// orders, by config id) holds has the order it shows, every other config
// its order before, and nothing else of any config changed (updated_at
// aside); no config came or went.
func OrdersAsPlanned(orders map[int64]int64, before, after Snapshot) []string {
	var problems []string
	for _, id := range slices.Sorted(maps.Keys(before)) {
		now, ok := after[id]
		if !ok {
			problems = append(problems, fmt.Sprintf("config %d is gone from the service", id))
			continue
		}
		want := before[id]
		if o, ok := orders[id]; ok {
			want.Order = o
		}
		problems = append(problems, differences(id, "the order's plan does not show it", want, now, nil)...)
	}
	for _, id := range slices.Sorted(maps.Keys(after)) {
		if _, ok := before[id]; !ok {
			problems = append(problems, fmt.Sprintf("config %d is new", id))
		}
	}
	return problems
}

// Sequenced lists where orders (of the configs of a collection, by id)
// do not put ids in sequence under policy from the orders of before: the
// listed configs run in the given sequence; with "keep" the others keep
// their orders, with "last" they run after the listed ones, in the
// sequence they ran in.
func Sequenced(ids []int64, policy string, orders map[int64]int64, before Snapshot) []string {
	var problems []string
	listed, last := map[int64]bool{}, int64(0)
	for i, id := range ids {
		listed[id] = true
		if o, ok := orders[id]; !ok || i > 0 && o <= last {
			problems = append(problems, fmt.Sprintf("config %d, listed %d of %v, has order %d (known: %v), not after %d", id, i+1, ids, o, ok, last))
		}
		last = orders[id]
	}
	var unlisted []int64
	for id := range orders {
		if !listed[id] {
			unlisted = append(unlisted, id)
		}
	}
	slices.SortFunc(unlisted, func(a, b int64) int { return cmp.Or(cmp.Compare(before[a].Order, before[b].Order), cmp.Compare(a, b)) })
	for i, id := range unlisted {
		switch {
		case policy == "keep" && orders[id] != before[id].Order:
			problems = append(problems, fmt.Sprintf("config %d, unlisted, kept in place, moved from %d to %d", id, before[id].Order, orders[id]))
		case policy == "last" && orders[id] <= last:
			problems = append(problems, fmt.Sprintf("config %d, unlisted, has order %d, not after the listed ones (%d)", id, orders[id], last))
		case policy == "last" && i > 0 && orders[id] <= orders[unlisted[i-1]]:
			problems = append(problems, fmt.Sprintf("config %d, unlisted, no longer runs after config %d", id, unlisted[i-1]))
		}
	}
	return problems
}

// plannedOrders reads the orders attribute of a planned order resource.
func plannedOrders(planned tftypes.Value) (map[int64]int64, bool) {
	var attrs map[string]tftypes.Value
	if planned.As(&attrs) != nil || !attrs["orders"].IsFullyKnown() || attrs["orders"].IsNull() {
		return nil, false
	}
	var elems map[string]tftypes.Value
	if attrs["orders"].As(&elems) != nil {
		return nil, false
	}
	out := make(map[int64]int64, len(elems))
	for k, v := range elems {
		id, err := strconv.ParseInt(k, 10, 64)
		var f big.Float
		if err != nil || v.As(&f) != nil {
			return nil, false
		}
		n, _ := f.Int64()
		out[id] = n
	}
	return out, true
}

// noteMoved marks the resources whose configs an order apply moved: each
// has drifted, and one that sets order no longer converges.
func (m *Machine) noteMoved(before, after Snapshot) {
	for _, h := range m.slots() {
		id, _, ok := idOf(h.s.inst)
		if !ok || before[id].Order == after[id].Order {
			continue
		}
		h.s.drift = true
		if h.s.config != nil && h.s.config.Order != nil {
			h.s.converged = false
		}
	}
}

// setsOrder reports whether a resource that holds config id sets its
// order: an order resource listing it would fight it.
func (m *Machine) setsOrder(id int64) bool {
	for _, h := range m.slots() {
		if held, _, ok := idOf(h.s.inst); ok && held == id && h.s.config != nil && h.s.config.Order != nil {
			return true
		}
	}
	return false
}

// kindOfPlugin is the kind of the catalog's plugin id ("" when unknown).
func (m *Machine) kindOfPlugin(id int64) string {
	if p, ok := m.env.Catalog.Plugin(id); ok {
		return kindOf(p)
	}
	return ""
}

func orderTypeName(kind string) string { return "pipeline_" + kind + "_order" }

// orderHCL renders an order resource's configuration.
func orderHCL(kind string, ids []int64, policy string) string {
	refs := make([]string, len(ids))
	for i, id := range ids {
		refs[i] = strconv.FormatInt(id, 10)
	}
	return fmt.Sprintf("resource %q \"this\" {\n  config_ids       = [%s]\n  unlisted_configs = %q\n}\n",
		orderTypeName(kind), strings.Join(refs, ", "), policy)
}
