package order

import (
	"maps"
	"math"
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
	orders := activeOrders(recs)
	byOrder := sequenceOf(orders)
	if want := []int64{1, 2, 3}; !slices.Equal(byOrder, want) {
		t.Fatalf("byOrder %v, want %v (deleted left out, ties by id)", byOrder, want)
	}
	for _, tt := range []struct {
		name     string
		previous []int64
		want     []int64
	}{
		{"tie: the service's sequence", []int64{1, 3, 2}, []int64{1, 2, 3}},
		{"a config not listed: not part of it", []int64{1, 2}, []int64{1, 2}},
		{"a listed config gone", []int64{1, 2, 3, 9}, []int64{1, 2, 3}},
		{"a listed config gone, the rest re-ordered", []int64{3, 1, 9}, []int64{1, 3}},
		{"nothing listed", []int64{}, []int64{}},
		{"after an import: every config", nil, []int64{1, 2, 3}},
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
	listed := []int64{10, 11}
	current := map[int64]int64{20: 0, 10: 1, 11: 2, 21: 7, 22: 7}
	want := map[int64]int64{10: 1, 11: 2}
	w := map[int64]int64{20: 3, 22: 8}
	if writes, fits := unlistedAfter(listed, want, current); !maps.Equal(writes, w) || !fits {
		t.Errorf("writes %v (fits %v), want %v", writes, fits, w)
	}
	// Unlisted 21 and 22 tied at the service's largest order: 22 cannot go
	// past it, so 21 moves down (found by the generated scenarios).
	current = map[int64]int64{20: 0, 10: 1, 11: 2, 21: math.MaxInt32, 22: math.MaxInt32}
	w = map[int64]int64{20: 3, 21: math.MaxInt32 - 1}
	if writes, fits := unlistedAfter(listed, want, current); !maps.Equal(writes, w) || !fits {
		t.Errorf("a tie at the largest order: writes %v (fits %v), want %v", writes, fits, w)
	}
	// Wanted up to the largest order: no room after it.
	if _, fits := unlistedAfter(listed, map[int64]int64{10: 1, 11: math.MaxInt32}, current); fits {
		t.Errorf("configs after the largest order fit")
	}
}

func TestArrange(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name         string
		policy       string
		ids          []int64
		current      map[int64]int64
		want         map[int64]int64
		wantUnlisted []int64
	}{
		{
			name: "last: in sequence, nothing else", policy: unlistedLast, ids: []int64{1, 2},
			current: map[int64]int64{1: 1, 2: 2}, want: map[int64]int64{1: 1, 2: 2}, wantUnlisted: []int64{},
		},
		{
			name: "last: a config added in the UI at 0 moves after the listed ones", policy: unlistedLast, ids: []int64{1, 2, 3},
			current: map[int64]int64{1: 1, 2: 2, 3: 3, 6: 0}, want: map[int64]int64{1: 1, 2: 2, 3: 3, 6: 4}, wantUnlisted: []int64{6},
		},
		{
			name: "last: one already after stays", policy: unlistedLast, ids: []int64{1, 2},
			current: map[int64]int64{1: 1, 2: 2, 6: 9}, want: map[int64]int64{1: 1, 2: 2, 6: 9}, wantUnlisted: []int64{6},
		},
		{
			name: "last: a new sequence numbers the listed ones, the unlisted follow in their own sequence", policy: unlistedLast,
			ids: []int64{2, 1}, current: map[int64]int64{1: 1, 2: 2, 6: 0, 7: 3},
			want: map[int64]int64{2: 1, 1: 2, 6: 3, 7: 4}, wantUnlisted: []int64{6, 7},
		},
		{
			name: "keep: a config added in the UI stays", policy: unlistedKeep, ids: []int64{1, 2, 3},
			current: map[int64]int64{1: 1, 2: 2, 3: 3, 6: 0}, want: map[int64]int64{1: 1, 2: 2, 3: 3, 6: 0}, wantUnlisted: []int64{6},
		},
		{
			name: "keep: the listed ones swap their places; the one between them stays between", policy: unlistedKeep,
			ids: []int64{3, 1, 2}, current: map[int64]int64{1: 1, 2: 2, 6: 3, 3: 4},
			want: map[int64]int64{3: 1, 1: 2, 6: 3, 2: 4}, wantUnlisted: []int64{6},
		},
		{
			name: "last: listed ones in sequence up to the largest order leave no room after them: numbered from 1", policy: unlistedLast,
			ids: []int64{1, 2}, current: map[int64]int64{1: 5, 2: math.MaxInt32, 6: 7},
			want: map[int64]int64{1: 1, 2: 2, 6: 7}, wantUnlisted: []int64{6},
		},
		{
			name: "last: unlisted ones tied at the largest order: the first moves down, not the last past it", policy: unlistedLast,
			ids: []int64{6, 5}, current: map[int64]int64{5: 0, 6: 1, 9: math.MaxInt32, 10: math.MaxInt32},
			want: map[int64]int64{6: 1, 5: 2, 9: math.MaxInt32 - 1, 10: math.MaxInt32}, wantUnlisted: []int64{9, 10},
		},
		{
			name: "keep: a tie at the largest order moves down, not past it", policy: unlistedKeep,
			ids: []int64{2, 1}, current: map[int64]int64{1: math.MaxInt32, 2: math.MaxInt32, 6: 0},
			want: map[int64]int64{2: math.MaxInt32 - 1, 1: math.MaxInt32, 6: 0}, wantUnlisted: []int64{6},
		},
		{
			name: "keep: tied places become one more than the one before", policy: unlistedKeep,
			ids: []int64{2, 1, 3}, current: map[int64]int64{1: 0, 2: 0, 3: 0, 6: 5},
			want: map[int64]int64{2: 0, 1: 1, 3: 2, 6: 5}, wantUnlisted: []int64{6},
		},
	} {
		got, unlisted := arrange(tt.policy, tt.ids, tt.current)
		if !maps.Equal(got, tt.want) || !slices.Equal(unlisted, tt.wantUnlisted) {
			t.Errorf("%s: arrange = %v, unlisted %v; want %v, unlisted %v", tt.name, got, unlisted, tt.want, tt.wantUnlisted)
		}
		if !inSequence(tt.ids, got) {
			t.Errorf("%s: %v does not put %v in sequence", tt.name, got, tt.ids)
		}
	}
}

func TestOrderConversions(t *testing.T) {
	t.Parallel()
	ids := []int64{3, 1, 2}
	got, ok := listInt64s(int64List(ids))
	if !ok || !slices.Equal(got, ids) {
		t.Errorf("list round trip: %v %v", got, ok)
	}
	want := map[int64]int64{3: 1, 1: 2, 2: 3}
	if orders, ok := mapOrders(ordersMap(want)); !ok || !maps.Equal(orders, want) {
		t.Errorf("map round trip: %v, want %v", orders, want)
	}
	if w := changedOrders(map[int64]int64{1: 1, 2: 2, 3: 3}, map[int64]int64{1: 1, 2: 5}); !maps.Equal(w, map[int64]int64{2: 2, 3: 3}) {
		t.Errorf("changedOrders %v", w)
	}
}
