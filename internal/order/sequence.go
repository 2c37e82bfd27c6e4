package order

import (
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

// targetOrders numbers ids from 1 in sequence: the first gets the lowest
// order.
func targetOrders(ids []int64) map[int64]int64 {
	out := make(map[int64]int64, len(ids))
	for i, id := range ids {
		out[id] = int64(i + 1)
	}
	return out
}

// sameMembers reports whether a and b hold the same ids, in any sequence.
func sameMembers(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
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

// observedSequence is the sequence Read reports: the previous sequence while
// the service still holds it (same configs, strictly increasing orders), so
// that equal outcomes never show as a change; otherwise the service's own,
// by order and then id, which differs from what is configured and so shows
// configs added, removed or re-ordered out of band.
func observedSequence(previous []int64, orders map[int64]int64, byOrder []int64) []int64 {
	if sameMembers(previous, byOrder) && inSequence(previous, orders) {
		return previous
	}
	return byOrder
}

// unlistedAfter gives the active configs missing from the wanted sequence
// (byOrder without the wanted ids) orders after maxWanted, keeping their
// relative order and leaving alone those already placed after. It returns
// the orders to write and the ids it found.
func unlistedAfter(byOrder []int64, wanted map[int64]int64, current map[int64]int64, maxWanted int64) (map[int64]int64, []int64) {
	writes := map[int64]int64{}
	var unlisted []int64
	next := maxWanted + 1
	for _, id := range byOrder {
		if _, ok := wanted[id]; ok {
			continue
		}
		unlisted = append(unlisted, id)
		if current[id] >= next {
			next = current[id] + 1
			continue
		}
		writes[id] = next
		next++
	}
	return writes, unlisted
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
