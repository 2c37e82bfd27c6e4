package client

import (
	"bufio"
	"context"
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// silentListener accepts connections and reads their requests but answers
// none, like a host behind a proxy that never answers; it counts the
// requests it read.
func silentListener(t *testing.T) (host string, requests *atomic.Int32) {
	t.Helper()
	var lc net.ListenConfig
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	requests = new(atomic.Int32)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { _ = conn.Close() })
			go func() {
				r := bufio.NewReader(conn)
				for {
					if _, err := http.ReadRequest(r); err != nil {
						return
					}
					requests.Add(1)
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String(), requests
}

// TestSilentHost_twoAttemptsThenNoMore: an attempt the service leaves
// unanswered past the request timeout gets one retry, not max_retries'
// worth; once two attempts in a row went unanswered, the run sends nothing
// more, and says why.
func TestSilentHost_twoAttemptsThenNoMore(t *testing.T) {
	host, requests := silentListener(t)
	c := newTestClient(t, host, func(c *Config) { c.RequestTimeout = 100 * time.Millisecond; c.MaxRetries = 5 })
	start := time.Now()
	err := call(context.Background(), c, http.MethodGet)
	var tErr *TransportError
	if !errors.As(err, &tErr) || !isA[*AttemptTimeoutError](err) || tErr.Attempts != 2 {
		t.Fatalf("got %v, want no answer within the request timeout after 2 attempts", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s, want about two request timeouts (200ms)", d)
	}
	for _, method := range []string{http.MethodPatch, http.MethodGet} {
		start = time.Now()
		err = call(context.Background(), c, method)
		if !isA[*SilentHostError](err) || MayHaveApplied(err) || time.Since(start) > 50*time.Millisecond {
			t.Errorf("%s got %v after %s, want a request not sent, at once", method, err, time.Since(start))
		}
	}
	if got := requests.Load(); got != 2 {
		t.Errorf("the host read %d requests, want the first call's 2", got)
	}
}

// TestSilentHost_anAnswerStartsTheCountAgain: a service that leaves some
// attempts unanswered but answers between them is never given up on.
func TestSilentHost_anAnswerStartsTheCountAgain(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n%2 == 0 {
			<-r.Context().Done() // every other attempt goes unanswered
			return
		}
		success(w, r)
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.RequestTimeout = 50 * time.Millisecond })
	for i := range 3 {
		if err := call(context.Background(), c, http.MethodGet); err != nil {
			t.Fatalf("call %d: %v, want its retry answered", i, err)
		}
	}
}

// TestWithTimeLimit: a call its time limit ends fails with the limit's
// error, which says what set it; it is still a context.DeadlineExceeded.
func TestWithTimeLimit(t *testing.T) {
	host, _ := silentListener(t)
	c := newTestClient(t, host, func(c *Config) { c.RequestTimeout = 10 * time.Second })
	limit := &testLimit{}
	ctx, cancel := WithTimeLimit(context.Background(), 100*time.Millisecond, limit)
	defer cancel()
	err := call(ctx, c, http.MethodGet)
	if !errors.Is(err, limit) || !errors.Is(err, context.DeadlineExceeded) || isA[*AttemptTimeoutError](err) {
		t.Fatalf("got %v, want the time limit's error", err)
	}
}

type testLimit struct{}

func (*testLimit) Error() string { return "the test's time limit ran out" }
func (*testLimit) Unwrap() error { return context.DeadlineExceeded }
