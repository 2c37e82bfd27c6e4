package order

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// The order resource's arithmetic, free of Terraform and HTTP: which
// sequence the service holds, whether it already matches the wanted one,
// and which orders to write.

// inSequence reports whether orders (by config id) put ids in exactly that
// sequence: every id has an order and each is strictly greater than the one
// before. Ties do not count as ordered: the service would run them in an
// order of its own.
func inSequence(ids []int64, orders map[int64]int64) bool {
	for i, id := range ids {
		o, ok := orders[id]
		if !ok || (i > 0 && o <= orders[ids[i-1]]) {
			return false
		}
	}
	return true
}

// allIn reports whether orders holds every id.
func allIn(ids []int64, orders map[int64]int64) bool {
	for _, id := range ids {
		if _, ok := orders[id]; !ok {
			return false
		}
	}
	return true
}

// targetOrders numbers ids from 1 in sequence: the first gets the lowest
// order.
func targetOrders(ids []int64) map[int64]int64 {
	out := make(map[int64]int64, len(ids))
	for i, id := range ids {
		out[id] = int64(i + 1)
	}
	return out
}

// activeOrders returns the order of every record that is not soft-deleted,
// by id, and those records' ids by order and then id. The service lists no
// soft-deleted record; one in a page anyway is no part of the sequence.
func activeOrders(recs []client.Record) (map[int64]int64, []int64) {
	active := slices.DeleteFunc(slices.Clone(recs), func(r client.Record) bool { return r.Deleted })
	record.SortByOrder(active)
	orders := make(map[int64]int64, len(active))
	ids := make([]int64, len(active))
	for i, r := range active {
		orders[r.ID] = r.Order
		ids[i] = r.ID
	}
	return orders, ids
}

// Policies for the configs of the collection that config_ids does not list
// (unlisted_configs).
const (
	// unlistedLast places them after the listed configs, keeping their
	// sequence among themselves.
	unlistedLast = "last"
	// unlistedKeep leaves their orders alone; the listed configs are ordered
	// among themselves, in the places they already hold.
	unlistedKeep = "keep"
)

// observedSequence is the config_ids Read reports: the listed configs
// (previous) that are still active, in the previous sequence while the
// service holds them in it (strictly increasing orders), so that equal
// outcomes never show as a change; otherwise by the service's order and
// then id, which differs from what is configured and so shows a listed
// config re-ordered or gone out of band. Configs previous does not list are
// not part of it: they are the unlisted ones, never drift of config_ids.
// After an import (previous nil) every active config is listed.
func observedSequence(previous []int64, orders map[int64]int64, byOrder []int64) []int64 {
	if previous == nil {
		return byOrder
	}
	var kept []int64
	for _, id := range previous {
		if _, ok := orders[id]; ok {
			kept = append(kept, id)
		}
	}
	if len(kept) == len(previous) && inSequence(kept, orders) {
		return previous
	}
	listed := make(map[int64]bool, len(kept))
	for _, id := range kept {
		listed[id] = true
	}
	return slices.DeleteFunc(slices.Clone(byOrder), func(id int64) bool { return !listed[id] })
}

// unlistedIDs returns the ids of byOrder (a sequence of active configs)
// that ids does not hold, in byOrder's sequence.
func unlistedIDs(byOrder, ids []int64) []int64 {
	out := []int64{}
	for _, id := range byOrder {
		if !slices.Contains(ids, id) {
			out = append(out, id)
		}
	}
	return out
}

// arrange decides the orders of every active config (current, by id) once
// ids are in sequence under the policy for unlisted configs, and returns
// them with the unlisted ids in their resulting sequence. The listed
// configs keep their orders when they already run in sequence; otherwise
// "last" numbers them 1, 2, 3, ... and "keep" gives them the orders they
// hold among themselves, in the wanted sequence. "last" then places the
// unlisted configs after them (those already after stay); "keep" leaves
// them alone. Every id must be in current.
func arrange(policy string, ids []int64, current map[int64]int64) (map[int64]int64, []int64) {
	want := make(map[int64]int64, len(current))
	maps.Copy(want, current)
	switch {
	case inSequence(ids, current):
	case policy == unlistedKeep:
		maps.Copy(want, ownPlaces(ids, current))
	default:
		maps.Copy(want, targetOrders(ids))
	}
	byOrder := sequenceOf(current)
	if policy != unlistedKeep {
		listed := make(map[int64]int64, len(ids))
		for _, id := range ids {
			listed[id] = want[id]
		}
		after := unlistedAfter(byOrder, listed, current, maxOrder(listed))
		maps.Copy(want, after)
	}
	return want, unlistedIDs(sequenceOf(want), ids)
}

// ownPlaces gives ids, in sequence, the orders they hold (sorted), so that
// the configs between them stay between the same places; where orders tie,
// each takes one more than the one before.
func ownPlaces(ids []int64, current map[int64]int64) map[int64]int64 {
	places := make([]int64, len(ids))
	for i, id := range ids {
		places[i] = current[id]
	}
	slices.Sort(places)
	out := make(map[int64]int64, len(ids))
	for i, id := range ids {
		if i > 0 && places[i] <= places[i-1] {
			places[i] = places[i-1] + 1
		}
		out[id] = places[i]
	}
	return out
}

// sequenceOf returns the ids of orders by order and then id, the sequence
// the service lists them in (record.SortByOrder).
func sequenceOf(orders map[int64]int64) []int64 {
	ids := slices.Collect(maps.Keys(orders))
	slices.SortFunc(ids, func(a, b int64) int {
		if c := cmp.Compare(orders[a], orders[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return ids
}

// unlistedAfter gives the active configs missing from the wanted sequence
// (byOrder without the wanted ids) orders after maxWanted, keeping their
// relative order and leaving alone those already placed after, and returns
// the orders that change.
func unlistedAfter(byOrder []int64, wanted map[int64]int64, current map[int64]int64, maxWanted int64) map[int64]int64 {
	writes := map[int64]int64{}
	next := maxWanted + 1
	for _, id := range byOrder {
		if _, ok := wanted[id]; ok {
			continue
		}
		if current[id] >= next {
			next = current[id] + 1
			continue
		}
		writes[id] = next
		next++
	}
	return writes
}

// maxOrder is the highest value of orders, or 0.
func maxOrder(orders map[int64]int64) int64 {
	if len(orders) == 0 {
		return 0
	}
	return slices.Max(slices.Collect(maps.Values(orders)))
}

// changedOrders returns the entries of want that current does not hold.
func changedOrders(want, current map[int64]int64) map[int64]int64 {
	out := map[int64]int64{}
	for id, o := range want {
		if cur, ok := current[id]; !ok || cur != o {
			out[id] = o
		}
	}
	return out
}

// int64List converts ids to a Terraform list of numbers.
func int64List(ids []int64) types.List {
	elems := make([]attr.Value, len(ids))
	for i, id := range ids {
		elems[i] = types.Int64Value(id)
	}
	return types.ListValueMust(types.Int64Type, elems)
}

// listInt64s reads a known list of known numbers; ok is false when the list
// or an element is unknown.
func listInt64s(ctx context.Context, l types.List) (ids []int64, ok bool, diags diag.Diagnostics) {
	if l.IsNull() || l.IsUnknown() {
		return nil, false, nil
	}
	var vals []types.Int64
	diags = l.ElementsAs(ctx, &vals, false)
	if diags.HasError() {
		return nil, false, diags
	}
	ids = make([]int64, len(vals))
	for i, v := range vals {
		if v.IsUnknown() || v.IsNull() {
			return nil, false, diags
		}
		ids[i] = v.ValueInt64()
	}
	return ids, true, diags
}

// ordersMap converts orders of the given ids to a Terraform map keyed by
// config id.
func ordersMap(ids []int64, orders map[int64]int64) types.Map {
	elems := make(map[string]attr.Value, len(ids))
	for _, id := range ids {
		elems[strconv.FormatInt(id, 10)] = types.Int64Value(orders[id])
	}
	return types.MapValueMust(types.Int64Type, elems)
}

// mapOrders reads a known orders map; ok is false when it is null, unknown
// or holds a key that is not an id.
func mapOrders(ctx context.Context, m types.Map) (map[int64]int64, bool, diag.Diagnostics) {
	if m.IsNull() || m.IsUnknown() {
		return nil, false, nil
	}
	var vals map[string]types.Int64
	diags := m.ElementsAs(ctx, &vals, false)
	if diags.HasError() {
		return nil, false, diags
	}
	out := make(map[int64]int64, len(vals))
	for k, v := range vals {
		id, err := strconv.ParseInt(k, 10, 64)
		if err != nil || !framework.IsSet(v) {
			return nil, false, diags
		}
		out[id] = v.ValueInt64()
	}
	return out, true, diags
}
