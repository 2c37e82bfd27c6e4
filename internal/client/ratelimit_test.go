package client

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

func TestLimiterSpacesRequestsAfterBurst(t *testing.T) {
	clk := newFakeClock(true)
	l := newLimiter(60, clk) // burst 3, then 57 per minute
	interval := time.Minute / 57
	for i := 0; i < 10; i++ {
		if err := l.wait(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	sleeps := clk.Sleeps()
	if len(sleeps) != 7 {
		t.Fatalf("want the 3 burst requests free and 7 waits, got %v", sleeps)
	}
	for _, s := range sleeps {
		if d := s - interval; d < -time.Microsecond || d > time.Microsecond {
			t.Fatalf("want waits of %s, got %v", interval, sleeps)
		}
	}
}

func TestLimiterNeverExceedsBudgetInAnyMinute(t *testing.T) {
	for _, perMinute := range []int{1, 2, 19, 20, 100, 400, 480} {
		clk := newFakeClock(true)
		l := newLimiter(perMinute, clk)
		n := 3*perMinute + 5
		sent := make([]time.Time, 0, n)
		for i := 0; i < n; i++ {
			if err := l.wait(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			sent = append(sent, clk.Now())
			// Idle now and then, so the bucket refills to a full burst.
			if i%(perMinute+1) == perMinute {
				clk.Add(5 * time.Minute)
			}
		}
		budget := perMinute
		for i := 0; i+budget < len(sent); i++ {
			if gap := sent[i+budget].Sub(sent[i]); gap < time.Minute-time.Millisecond {
				t.Fatalf("perMinute %d: requests %d and %d are %s apart: more than %d in a minute", perMinute, i, i+budget, gap, budget)
			}
		}
	}
}

func TestLimiterConcurrentWaitersQueue(t *testing.T) {
	clk := newFakeClock(false) // time stands still: waits add up
	l := newLimiter(120, clk)  // burst 6, then 114 per minute
	interval := time.Minute / 114
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.wait(context.Background(), nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	sleeps := clk.Sleeps()
	sort.Slice(sleeps, func(i, j int) bool { return sleeps[i] < sleeps[j] })
	if len(sleeps) != 14 {
		t.Fatalf("want 6 free and 14 queued, got %d waits", len(sleeps))
	}
	for i, s := range sleeps {
		want := time.Duration(i+1) * interval
		if d := s - want; d < -time.Microsecond || d > time.Microsecond {
			t.Fatalf("waiter %d: got %s, want %s", i, s, want)
		}
	}
}

func TestLimiterWaitStopsOnCancel(t *testing.T) {
	l := newLimiter(1, realClock{})
	if err := l.wait(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	err := l.wait(ctx, nil)
	if !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
		t.Fatalf("want a prompt context.Canceled, got %v after %s", err, time.Since(start))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tokens < -0.01 || l.tokens > 0.01 {
		t.Fatalf("the cancelled reservation should be given back, tokens = %f", l.tokens)
	}
}

func TestClientRateLimitCoversRetries(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n%2 == 0 {
			writeJSON(w, 503, envelope("server_error", "x", "busy", ""))
			return
		}
		success(w, r)
	})
	clk := newFakeClock(true)
	cfg := testConfig(srv.URL)
	cfg.RequestsPerMinute = 40 // burst 2, then 38 per minute
	c, err := newClient(cfg, clk)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	for i := 0; i < 3; i++ {
		if _, err := c.Get(ctx, "1", Transformations, 42); err != nil {
			t.Fatal(err)
		}
	}
	// 3 calls, each a 503 and a retry: 6 attempts, 2 free, 4 spaced.
	if srv.count() != 6 {
		t.Fatalf("want 6 attempts, got %d", srv.count())
	}
	if got := len(clk.Sleeps()); got != 4 {
		t.Fatalf("every attempt, retries included, must pass the limiter: want 4 waits, got %d", got)
	}
	if !strings.Contains(buf.String(), "rate limit: waiting 1.579s before GET /api/projects/1/pipeline_transformation_configs/42/") {
		t.Fatalf("want an info line for the wait, got:\n%s", buf.String())
	}
}

func TestClientRateLimitCancelSendsNothing(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
	c := newTestClient(t, srv.URL, func(c *Config) { c.RequestsPerMinute = 1 })
	if _, err := c.Get(context.Background(), "1", Transformations, 42); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := c.Create(ctx, "1", Transformations, RecordInput{Plugin: Some[int64](1), Order: Some[int64](1)})
	if !errors.Is(err, context.DeadlineExceeded) || srv.count() != 1 || MayHaveApplied(err) {
		t.Fatalf("want a deadline error while waiting and no POST sent, got %v (server saw %d)", err, srv.count())
	}
}
