package client

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle/throttletest"
)

// The client's side of pacing: every attempt passes the throttle, and a
// 429 pauses every request of the client with one warning.

func TestClientRateLimitCoversRetries(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n%2 == 0 {
			writeJSON(w, 503, envelope("server_error", "x", "busy", ""))
			return
		}
		success(w, r)
	})
	clk := throttletest.NewClock(true)
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

func TestClient429PausesEveryRequestWithOneWarning(t *testing.T) {
	// Three requests reach the service together and are throttled (as
	// requests in flight when a pause begins are); a fourth, started
	// after, is held by the pause although it never got a 429.
	var arrived sync.WaitGroup
	arrived.Add(3)
	var throttledAt time.Time
	var mu sync.Mutex
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n < 3 {
			arrived.Done()
			arrived.Wait()
			mu.Lock()
			throttledAt = time.Now()
			mu.Unlock()
			w.Header().Set("Retry-After", "1")
			writeJSON(w, http.StatusTooManyRequests, envelope("throttled_error", "throttled", "Request was throttled. Expected available in 1 seconds.", ""))
			return
		}
		success(w, r)
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.RequestsPerMinute = 600 })
	var buf bytes.Buffer
	var bufMu sync.Mutex
	ctx := tflogtest.RootLogger(context.Background(), &lockedWriter{w: &buf, mu: &bufMu})
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Get(ctx, "1", Transformations, 42); err != nil {
				t.Error(err)
			}
		}()
	}
	arrived.Wait()
	var resume time.Time
	for resume.IsZero() { // until the first 429 began the pause
		time.Sleep(time.Millisecond)
		resume = c.throttle.ResumeTime()
	}
	start := time.Now()
	if _, err := c.Get(ctx, "1", Transformations, 42); err != nil {
		t.Fatal(err)
	}
	if end := time.Now(); end.Before(resume) {
		t.Errorf("the GET started after the 429s took %s and ended %s before the pause did: the pause did not hold it",
			end.Sub(start), resume.Sub(end))
	}
	wg.Wait()
	reqs := srv.requests()
	if len(reqs) != 7 {
		t.Fatalf("want 3 throttled attempts and 4 answered, got %d", len(reqs))
	}
	mu.Lock()
	if el := time.Since(throttledAt); el < 900*time.Millisecond {
		t.Errorf("the requests after the 429s ended %s after them, before the Retry-After of 1s", el)
	}
	mu.Unlock()
	bufMu.Lock()
	defer bufMu.Unlock()
	var warnings []string
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.Contains(line, `"@level":"warn"`) {
			warnings = append(warnings, line)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "every request of this client pauses for 1s") ||
		!strings.Contains(warnings[0], "then at most 285 requests/minute") {
		t.Fatalf("want one warning for the one pause, with its wait and the new pace; got %q", warnings)
	}
}

// lockedWriter serialises writes of concurrent loggers.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
