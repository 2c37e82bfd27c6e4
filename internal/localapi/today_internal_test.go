package localapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// rearrangeAnswer makes n enabled configs in project 1 with orders 1..n,
// then calls rearrange as svc with an empty body and returns the ids of
// its answer. The handler is called directly: on today's service no
// personal API key may call rearrange (only browser sessions, which the
// local API does not have), yet its answer has no defined order.
func rearrangeAnswer(t *testing.T, svc service, seed uint64, n int) []int64 {
	t.Helper()
	s, err := New(Options{Faults: Faults{Seed: seed}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	for i := range n {
		rec := &record{Team: 1, Plugin: 1, Enabled: true, Order: int64(i + 1), Config: json.RawMessage(`{}`)}
		if err := s.store.create(context.Background(), rec, s.logAs(activityCreated)); err != nil {
			t.Fatal(err)
		}
	}
	w := httptest.NewRecorder()
	r := httptest.NewRequestWithContext(t.Context(), http.MethodPatch, "/api/projects/1/"+TransformationConfigs+"/rearrange/", strings.NewReader(`{}`))
	r.Header.Set("Content-Type", "application/json")
	cat := s.catalog.Load()
	req := &request{w: w, r: r, ctx: r.Context(), route: parseRoute(cat, r.URL.Path), project: 1, cat: cat, svc: svc}
	if e := s.rearrange(req); e != nil || w.Code != http.StatusOK {
		t.Fatalf("rearrange: %v, %d %s", e, w.Code, w.Body)
	}
	var views []struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &views); err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(views))
	for i, v := range views {
		ids[i] = v.ID
	}
	return ids
}

// TestTodayRearrangeShuffled: today's service answers rearrange in no
// defined order, the same for the same fault seed; 2025's generation 2 by
// order.
func TestTodayRearrangeShuffled(t *testing.T) {
	sorted := []int64{1, 2, 3, 4, 5, 6, 7, 8}
	today := service{v: VersionE2026}
	first := rearrangeAnswer(t, today, 7, len(sorted))
	if slices.Equal(first, sorted) || !slices.Equal(slices.Sorted(slices.Values(first)), sorted) {
		t.Errorf("today: %v, want the ids %v shuffled", first, sorted)
	}
	if again := rearrangeAnswer(t, today, 7, len(sorted)); !slices.Equal(again, first) {
		t.Errorf("seed 7 again: %v, want %v", again, first)
	}
	if got := rearrangeAnswer(t, service{v: VersionE}, 7, len(sorted)); !slices.Equal(got, sorted) {
		t.Errorf("generation 2: %v, want by order", got)
	}
}
