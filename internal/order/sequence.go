package order

import (
	"cmp"
	"context"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// inSequence reports whether orders (by config id) put ids in that sequence:
// strictly increasing, as the service runs ties in an order of its own.
func inSequence(ids []int64, orders map[int64]int64) bool {
	for i, id := range ids {
		o, ok := orders[id]
		if !ok || (i > 0 && o <= orders[ids[i-1]]) {
			return false
		}
	}
	return true
}

// missingIDs returns the ids that orders does not hold, as users write them.
func missingIDs(ids []int64, orders map[int64]int64) []string {
	var missing []string
	for _, id := range ids {
		if _, ok := orders[id]; !ok {
			missing = append(missing, client.FormatID(id))
		}
	}
	return missing
}

// activeOrders returns the orders of the records not soft-deleted, by id.
func activeOrders(recs []client.Record) map[int64]int64 {
	orders := make(map[int64]int64, len(recs))
	for _, r := range recs {
		if !r.Deleted {
			orders[r.ID] = r.Order
		}
	}
	return orders
}

// Policies for the configs config_ids does not list (unlisted_configs).
const (
	unlistedLast = "last" // after the listed configs, in their own sequence
	unlistedKeep = "keep" // where they are; the listed ones take each other's places
)

// observedSequence is the config_ids Read reports: the still active configs
// of previous, in its sequence while the service holds them so, else in the
// service's (drift); after an import (previous nil) every active config.
func observedSequence(previous []int64, orders map[int64]int64, byOrder []int64) []int64 {
	if previous == nil {
		return byOrder
	}
	if inSequence(previous, orders) {
		return previous
	}
	return slices.DeleteFunc(slices.Clone(byOrder), func(id int64) bool { return !slices.Contains(previous, id) })
}

// observe sets config_ids, unlisted_config_ids and orders as Read reports
// orders (by config id) to a state whose config_ids were previous.
func (m *model) observe(previous []int64, orders map[int64]int64) {
	byOrder := sequenceOf(orders)
	ids := observedSequence(previous, orders, byOrder)
	m.ConfigIDs, m.UnlistedIDs, m.Orders = int64List(ids), int64List(unlistedIDs(byOrder, ids)), ordersMap(orders)
}

// unlistedIDs returns the ids of byOrder that ids does not hold.
func unlistedIDs(byOrder, ids []int64) []int64 {
	return slices.DeleteFunc(slices.Clone(byOrder), func(id int64) bool { return slices.Contains(ids, id) })
}

// arrange returns the orders of every active config (current, by id) that put
// ids in sequence under policy, and the unlisted ids in their new sequence.
// Listed configs already in sequence keep their orders; otherwise "last"
// numbers them from 1, then moves the unlisted after them, and "keep" gives
// them their own places. Every id must be in current.
//
// The service stores an order in 32 bits: listed configs in sequence up to
// its largest order leave no room after them, so "last" numbers them from
// 1 anyway; both move a tie at the top down rather than past it.
func arrange(policy string, ids []int64, current map[int64]int64) (map[int64]int64, []int64) {
	want := maps.Clone(current)
	_, fits := unlistedAfter(ids, current, current)
	switch {
	case inSequence(ids, current) && (policy == unlistedKeep || fits):
	case policy == unlistedKeep:
		maps.Copy(want, ownPlaces(ids, current))
	default:
		for i, id := range ids {
			want[id] = int64(i + 1)
		}
	}
	if policy != unlistedKeep {
		writes, _ := unlistedAfter(ids, want, current)
		maps.Copy(want, writes)
	}
	return want, unlistedIDs(sequenceOf(want), ids)
}

// ownPlaces gives ids, in sequence, the orders they hold (sorted), a tie one
// more than the one before, so that configs between them stay between, all
// below the service's largest order (belowLargest).
func ownPlaces(ids []int64, current map[int64]int64) map[int64]int64 {
	places := make([]int64, len(ids))
	for i, id := range ids {
		places[i] = current[id]
	}
	slices.Sort(places)
	for i := 1; i < len(places); i++ {
		if places[i] <= places[i-1] {
			places[i] = places[i-1] + 1
		}
	}
	belowLargest(places)
	out := make(map[int64]int64, len(ids))
	for i, id := range ids {
		out[id] = places[i]
	}
	return out
}

// sequenceOf returns the ids of orders by order and then id, as the service
// lists them.
func sequenceOf(orders map[int64]int64) []int64 {
	ids := slices.Collect(maps.Keys(orders))
	slices.SortFunc(ids, func(a, b int64) int { return cmp.Or(cmp.Compare(orders[a], orders[b]), cmp.Compare(a, b)) })
	return ids
}

// unlistedAfter returns new orders for the configs of current that ids
// leaves out, in their sequence, after the highest order listed gives ids
// (from 1 for no ids); those already after stay, all below the service's
// largest order (belowLargest). fits is false when that leaves no room after
// the listed ones.
func unlistedAfter(ids []int64, listed, current map[int64]int64) (writes map[int64]int64, fits bool) {
	var after int64
	for i, id := range ids {
		if i == 0 || listed[id] > after {
			after = listed[id]
		}
	}
	var unlisted, orders []int64
	next := after + 1
	for _, id := range sequenceOf(current) {
		if slices.Contains(ids, id) {
			continue
		}
		o := max(current[id], next)
		unlisted, orders, next = append(unlisted, id), append(orders, o), o+1
	}
	belowLargest(orders)
	writes = map[int64]int64{}
	for i, id := range unlisted {
		if orders[i] != current[id] {
			writes[id] = orders[i]
		}
	}
	return writes, len(orders) == 0 || orders[0] > after
}

// belowLargest moves the top of rising orders that pass the service's
// largest order (it stores 32 bits) down to it, one less each: a tie there
// moves down rather than past it.
func belowLargest(orders []int64) {
	limit := int64(math.MaxInt32)
	for i := len(orders) - 1; i >= 0 && orders[i] > limit; i-- {
		orders[i], limit = limit, limit-1
	}
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

func int64List(ids []int64) types.List {
	elems := make([]attr.Value, len(ids))
	for i, id := range ids {
		elems[i] = types.Int64Value(id)
	}
	return types.ListValueMust(types.Int64Type, elems)
}

// listInt64s reads a list of numbers; false when it is not known.
func listInt64s(l types.List) ([]int64, bool) {
	var ids []int64
	if !framework.IsSet(l) || l.ElementsAs(context.Background(), &ids, false).HasError() {
		return nil, false
	}
	return ids, true
}

// ordersMap converts orders to a Terraform map by config id.
func ordersMap(orders map[int64]int64) types.Map {
	elems := make(map[string]attr.Value, len(orders))
	for id, o := range orders {
		elems[strconv.FormatInt(id, 10)] = types.Int64Value(o)
	}
	return types.MapValueMust(types.Int64Type, elems)
}

// mapOrders reads a known orders map; false when it is not known.
func mapOrders(m types.Map) (map[int64]int64, bool) {
	if !framework.IsSet(m) {
		return nil, false
	}
	out := make(map[int64]int64, len(m.Elements()))
	for k, e := range m.Elements() {
		id, err := strconv.ParseInt(k, 10, 64)
		v, ok := e.(types.Int64)
		if err != nil || !ok || !framework.IsSet(v) {
			return nil, false
		}
		out[id] = v.ValueInt64()
	}
	return out, true
}
