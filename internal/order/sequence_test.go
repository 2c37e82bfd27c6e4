package order

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

func TestInSequence(t *testing.T) {
	t.Parallel()
	orders := map[int64]int64{1: 5, 2: 1, 3: 1, 4: 9}
	for _, tt := range []struct {
		ids  []int64
		want bool
	}{
		{nil, true},
		{[]int64{2, 1, 4}, true},
		{[]int64{1, 2}, false},    // decreasing
		{[]int64{2, 3}, false},    // tied: the service picks
		{[]int64{2, 1, 7}, false}, // 7 has no order
	} {
		if got := inSequence(tt.ids, orders); got != tt.want {
			t.Errorf("inSequence(%v) = %v, want %v", tt.ids, got, tt.want)
		}
	}
}

func TestObservedSequence(t *testing.T) {
	t.Parallel()
	recs := []client.Record{
		{ID: 1, Order: 10}, {ID: 2, Order: 20}, {ID: 3, Order: 20}, {ID: 4, Order: 0, Deleted: true},
	}
	orders, byOrder := activeOrders(recs)
	if want := []int64{1, 2, 3}; !slices.Equal(byOrder, want) {
		t.Fatalf("byOrder %v, want %v (deleted left out, ties by id)", byOrder, want)
	}
	for _, tt := range []struct {
		name     string
		previous []int64
		want     []int64
	}{
		{"tie: the service's sequence", []int64{1, 3, 2}, []int64{1, 2, 3}},
		{"a config more", []int64{1, 2}, []int64{1, 2, 3}},
		{"a config less", []int64{1, 2, 3, 9}, []int64{1, 2, 3}},
		{"after an import", nil, []int64{1, 2, 3}},
	} {
		if got := observedSequence(tt.previous, orders, byOrder); !slices.Equal(got, tt.want) {
			t.Errorf("%s: observedSequence(%v) = %v, want %v", tt.name, tt.previous, got, tt.want)
		}
	}
	// Held in sequence (no tie): the previous sequence stays, even when the
	// numbers are not 1, 2, 3.
	orders[3] = 30
	if got := observedSequence([]int64{1, 2, 3}, orders, byOrder); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("in sequence: %v", got)
	}
}

func TestUnlistedAfter(t *testing.T) {
	t.Parallel()
	// Wanted: 10 and 11 as 1 and 2. Unlisted: 20 (order 0), 21 (order 7,
	// already after), 22 (order 7, tied with 21, so moved after it).
	byOrder := []int64{20, 10, 11, 21, 22}
	current := map[int64]int64{20: 0, 10: 1, 11: 2, 21: 7, 22: 7}
	want := map[int64]int64{10: 1, 11: 2}
	writes, unlisted := unlistedAfter(byOrder, want, current, maxOrder(want))
	if !slices.Equal(unlisted, []int64{20, 21, 22}) {
		t.Errorf("unlisted %v", unlisted)
	}
	if w := map[int64]int64{20: 3, 22: 8}; !maps.Equal(writes, w) {
		t.Errorf("writes %v, want %v", writes, w)
	}
}

func TestOrderConversions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ids := []int64{3, 1, 2}
	got, ok, diags := listInt64s(ctx, int64List(ids))
	if !ok || diags.HasError() || !slices.Equal(got, ids) {
		t.Errorf("list round trip: %v %v %v", got, ok, diags)
	}
	orders, ok, diags := mapOrders(ctx, ordersMap(ids, targetOrders(ids)))
	if want := map[int64]int64{3: 1, 1: 2, 2: 3}; !ok || diags.HasError() || !maps.Equal(orders, want) {
		t.Errorf("map round trip: %v, want %v", orders, want)
	}
	if w := changedOrders(map[int64]int64{1: 1, 2: 2, 3: 3}, map[int64]int64{1: 1, 2: 5}); !maps.Equal(w, map[int64]int64{2: 2, 3: 3}) {
		t.Errorf("changedOrders %v", w)
	}
}
