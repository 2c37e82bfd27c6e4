package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// pager serves a collection of records 1..total(call) by limit/offset, with
// a next link on a host the client cannot reach.
type pager struct {
	total        func(call int) int // count, possibly changing per call
	ignoreOffset bool
	omitCount    bool
	calls        atomic.Int32
}

func (p *pager) serve(n int, w http.ResponseWriter, r *http.Request) {
	call := int(p.calls.Add(1)) - 1
	total := p.total(call)
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	if limit <= 0 {
		limit = 100
	}
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	if p.ignoreOffset {
		offset = 0
	}
	results := []map[string]any{}
	for i := offset; i < total && i < offset+limit; i++ {
		results = append(results, map[string]any{"id": i + 1, "plugin": 1, "order": i, "plugin_info": nil})
	}
	page := map[string]any{"results": results, "previous": nil,
		"next": fmt.Sprintf("http://wrong-host.invalid:1/api/projects/1/x/?limit=%d&offset=%d", limit, offset+limit)}
	if !p.omitCount {
		page["count"] = total
	}
	writeJSON(w, 200, page)
}

func constant(n int) func(int) int { return func(int) int { return n } }

func ids(recs []Record) []int64 {
	out := make([]int64, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

func checkIDs(t *testing.T, recs []Record, n int) {
	t.Helper()
	if len(recs) != n {
		t.Fatalf("want %d records, got %d", n, len(recs))
	}
	for i, id := range ids(recs) {
		if id != int64(i+1) {
			t.Fatalf("record %d has id %d", i, id)
		}
	}
}

func TestListAllWalksPagesByArithmetic(t *testing.T) {
	p := &pager{total: constant(250)}
	srv := newRecorder(t, p.serve)
	c := newTestClient(t, srv.URL)
	recs, err := c.ListAll(context.Background(), "1", Transformations)
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, recs, 250)
	var queries []string
	for _, r := range srv.requests() {
		if r.Path != "/api/projects/1/pipeline_transformation_configs/" {
			t.Fatalf("next was followed or path is wrong: %s", r.Path)
		}
		queries = append(queries, r.Query)
	}
	want := "limit=100&offset=0 limit=100&offset=100 limit=100&offset=200"
	if got := strings.Join(queries, " "); got != want {
		t.Fatalf("queries: got %q, want %q", got, want)
	}
}

func TestListAllPageSizeAndExactMultiple(t *testing.T) {
	p := &pager{total: constant(6)}
	srv := newRecorder(t, p.serve)
	c := newTestClient(t, srv.URL, func(c *Config) { c.PageSize = 2 })
	recs, err := c.ListAll(context.Background(), "1", ImportApps)
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, recs, 6)
	if srv.count() != 3 {
		t.Fatalf("count tells the walk to stop at 6: want 3 requests, got %d", srv.count())
	}
}

func TestListAllEmptyCollection(t *testing.T) {
	srv := newRecorder(t, (&pager{total: constant(0)}).serve)
	c := newTestClient(t, srv.URL)
	recs, err := c.ListAll(context.Background(), "1", Transformations)
	if err != nil || len(recs) != 0 || srv.count() != 1 {
		t.Fatalf("got %v, %v after %d requests", recs, err, srv.count())
	}
}

func TestListAllServerIgnoringOffsetDoesNotLoop(t *testing.T) {
	srv := newRecorder(t, (&pager{total: constant(250), ignoreOffset: true}).serve)
	c := newTestClient(t, srv.URL)
	recs, err := c.ListAll(context.Background(), "1", Transformations)
	if err == nil || !strings.Contains(err.Error(), "ignore offset") {
		t.Fatalf("want an error about offset, got %d records, %v", len(recs), err)
	}
	if srv.count() != 2 {
		t.Fatalf("want the walk to stop at the first repeated page, got %d requests", srv.count())
	}
}

func TestListAllServerIgnoringOffsetWithOnePage(t *testing.T) {
	srv := newRecorder(t, (&pager{total: constant(30), ignoreOffset: true}).serve)
	c := newTestClient(t, srv.URL)
	recs, err := c.ListAll(context.Background(), "1", Transformations)
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, recs, 30)
}

func TestListAllCountChangingMidWalk(t *testing.T) {
	// 150 records when the walk starts, 10 more created before page 2.
	p := &pager{total: func(call int) int {
		if call == 0 {
			return 150
		}
		return 160
	}}
	srv := newRecorder(t, p.serve)
	c := newTestClient(t, srv.URL)
	recs, err := c.ListAll(context.Background(), "1", Transformations)
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, recs, 160)

	// Shrinking: 250 at first, then 120: stop once offset passes the new count.
	p = &pager{total: func(call int) int {
		if call == 0 {
			return 250
		}
		return 120
	}}
	srv = newRecorder(t, p.serve)
	c = newTestClient(t, srv.URL)
	recs, err = c.ListAll(context.Background(), "1", Transformations)
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, recs, 120)
	if srv.count() != 2 {
		t.Fatalf("want 2 requests, got %d", srv.count())
	}
}

func TestListAllWithoutCountStopsAtShortPage(t *testing.T) {
	srv := newRecorder(t, (&pager{total: constant(130), omitCount: true}).serve)
	c := newTestClient(t, srv.URL)
	recs, err := c.ListAll(context.Background(), "1", Transformations)
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, recs, 130)
}

func TestListAllDropsRecordsSeenTwice(t *testing.T) {
	// A record created at the front shifts everything by one: page 2
	// starts with the last record of page 1.
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		page := func(from, to, count int) map[string]any {
			res := []map[string]any{}
			for i := from; i <= to; i++ {
				res = append(res, map[string]any{"id": i})
			}
			return map[string]any{"count": count, "results": res}
		}
		if n == 0 {
			writeJSON(w, 200, page(1, 2, 4))
			return
		}
		writeJSON(w, 200, page(2, 4, 5))
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.PageSize = 2 })
	recs, err := c.ListAll(context.Background(), "1", Transformations)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ids(recs)); got != "[1 2 3 4]" {
		t.Fatalf("got %s", got)
	}
}

func TestListOnePage(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"count":"3","next":"http://internal:8000/api/projects/1/x/?limit=1&offset=2","previous":"http://internal:8000/api/projects/1/x/?limit=1",
			"results":[{"id":2,"plugin_info":null,"config":{"x":1}}]}`)
	})
	c := newTestClient(t, srv.URL)
	page, err := c.List(context.Background(), "@current", Transformations, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if page.Count != 3 || len(page.Results) != 1 || page.Results[0].ID != 2 || page.Next == nil {
		t.Fatalf("got %+v", page)
	}
	req := srv.requests()[0]
	if req.Path != "/api/projects/@current/pipeline_transformation_configs/" || req.Query != "limit=1&offset=1" {
		t.Fatalf("sent %s?%s", req.Path, req.Query)
	}
}

func TestListBareArray(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		b, _ := json.Marshal([]map[string]any{{"id": 1}, {"id": 2}})
		writeJSON(w, 200, string(b))
	})
	c := newTestClient(t, srv.URL)
	recs, err := c.ListAll(context.Background(), "1", Transformations)
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, recs, 2)
}

func TestListErrorIsAPIError(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			(&pager{total: constant(150)}).serve(n, w, r)
			return
		}
		writeJSON(w, 403, envelope("authentication_error", "permission_denied", "API key missing required scope 'plugin:read'", ""))
	})
	c := newTestClient(t, srv.URL)
	_, err := c.ListAll(context.Background(), "1", Transformations)
	if !IsForbidden(err) || !strings.Contains(err.Error(), "offset=100") {
		t.Fatalf("want a 403 naming the page, got %v", err)
	}
}

// endless serves pages that never end: every page full of records not
// seen before, count always a record ahead, next at nextAt(offset, limit),
// and each answer padded with pad spaces (still JSON).
func endless(pad int, nextAt func(offset, limit int) int) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, r *http.Request) {
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		results := make([]map[string]any, limit)
		for i := range results {
			results[i] = map[string]any{"id": offset + i + 1, "plugin": 1}
		}
		b, _ := json.Marshal(map[string]any{"count": offset + limit + 1, "results": results, "previous": nil,
			"next": fmt.Sprintf("http://wrong-host.invalid:1/api/projects/1/x/?limit=%d&offset=%d", limit, nextAt(offset, limit))})
		writeJSON(w, 200, string(b)+strings.Repeat(" ", pad))
	}
}

func forward(offset, limit int) int { return offset + limit }

func TestListAllStopsAtTheBudget(t *testing.T) {
	t.Run("pages that never end", func(t *testing.T) {
		srv := newRecorder(t, endless(0, forward))
		_, err := newTestClient(t, srv.URL).ListAll(context.Background(), "1", Transformations)
		if err == nil || !strings.Contains(err.Error(), "budget of one listing (200 pages or 64 MiB) after 200 pages") {
			t.Fatalf("want the page budget, got %v", err)
		}
		if srv.count() != MaxListPages {
			t.Errorf("%d pages asked for, want the budget's %d", srv.count(), MaxListPages)
		}
	})
	t.Run("answers that weigh more than the budget", func(t *testing.T) {
		srv := newRecorder(t, endless(1<<20, forward)) // 1 MiB a page
		_, err := newTestClient(t, srv.URL).ListAll(context.Background(), "1", Transformations)
		if err == nil || !strings.Contains(err.Error(), "after 64 pages, 64.1 MiB") {
			t.Fatalf("want the byte budget, got %v", err)
		}
	})
	t.Run("a count past the budget fails at once", func(t *testing.T) {
		srv := newRecorder(t, (&pager{total: constant(1_000_000)}).serve)
		_, err := newTestClient(t, srv.URL).ListAll(context.Background(), "1", Transformations)
		if err == nil || !strings.Contains(err.Error(), "counts 1000000 records, past the budget") || srv.count() != 1 {
			t.Fatalf("want the count refused after one page, got %v after %d", err, srv.count())
		}
	})
	for name, nextAt := range map[string]func(int, int) int{
		"a next link that repeats the page": func(offset, _ int) int { return offset },
		"a next link that goes back":        func(int, int) int { return 0 },
	} {
		t.Run(name, func(t *testing.T) {
			srv := newRecorder(t, endless(0, nextAt))
			_, err := newTestClient(t, srv.URL).ListAll(context.Background(), "1", Transformations)
			if err == nil || !strings.Contains(err.Error(), "do not move forward") || srv.count() != 1 {
				t.Fatalf("want the next link refused after one page, got %v after %d", err, srv.count())
			}
		})
	}
}

func TestListAllStopsAtTheDeadline(t *testing.T) {
	t.Run("between pages", func(t *testing.T) {
		serve := endless(0, forward)
		srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
			time.Sleep(20 * time.Millisecond) // 200 pages would take 4s
			serve(n, w, r)
		})
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := newTestClient(t, srv.URL).ListAll(ctx, "1", Transformations)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "stopped at the operation's time limit after") {
			t.Fatalf("want the time limit, got %v", err)
		}
	})
	t.Run("while reading an answer", func(t *testing.T) {
		srv := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"count": 1, "results": [`)
			rc := http.NewResponseController(w)
			for r.Context().Err() == nil { // a trickle that never ends
				_, _ = io.WriteString(w, " ")
				_ = rc.Flush()
				time.Sleep(10 * time.Millisecond)
			}
		})
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := newTestClient(t, srv.URL).ListAll(ctx, "1", Transformations)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "time limit after 0 pages") {
			t.Fatalf("want the time limit, got %v", err)
		}
	})
}
