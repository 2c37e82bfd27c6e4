package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle/throttletest"
)

// call runs the client operation that uses method, against any server.
func call(ctx context.Context, c *Client, method string) error {
	var err error
	switch method {
	case http.MethodGet:
		_, err = c.Get(ctx, "1", Transformations, 42)
	case http.MethodPost:
		_, err = c.Create(ctx, "1", Transformations, RecordInput{Plugin: Some[int64](7), Order: Some[int64](1)})
	case http.MethodPatch:
		_, err = c.Update(ctx, "1", Transformations, 42, RecordInput{Enabled: Some(true)})
	case http.MethodDelete:
		err = c.Delete(ctx, "1", Transformations, 42)
	}
	return err
}

// success answers a request of any method as the live service would.
func success(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		writeJSON(w, http.StatusCreated, recordJSON)
	case http.MethodDelete:
		w.WriteHeader(http.StatusNoContent)
	default:
		writeJSON(w, http.StatusOK, recordJSON)
	}
}

func TestRetryRulesPerMethodAndStatus(t *testing.T) {
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete}
	tests := []struct {
		status int
		// retried lists the methods for which a first answer of status is
		// followed by a second attempt.
		retried map[string]bool
	}{
		{http.StatusTooManyRequests, map[string]bool{"GET": true, "POST": true, "PATCH": true, "DELETE": true}},
		{http.StatusBadGateway, map[string]bool{"GET": true, "PATCH": true, "DELETE": true}},
		{http.StatusServiceUnavailable, map[string]bool{"GET": true, "PATCH": true, "DELETE": true}},
		{http.StatusGatewayTimeout, map[string]bool{"GET": true, "PATCH": true, "DELETE": true}},
		{http.StatusInternalServerError, map[string]bool{}},
		{http.StatusBadRequest, map[string]bool{}},
		{http.StatusNotFound, map[string]bool{}},
	}
	for _, tt := range tests {
		for _, method := range methods {
			t.Run(http.StatusText(tt.status)+"/"+method, func(t *testing.T) {
				srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
					if answerProbe(w, r) {
						return
					}
					if n == 0 {
						writeJSON(w, tt.status, envelope("server_error", "x", "first answer", ""))
						return
					}
					success(w, r)
				})
				c := newTestClient(t, srv.URL)
				err := call(context.Background(), c, method)
				if tt.retried[method] {
					if err != nil {
						t.Fatalf("want success after a retry, got %v", err)
					}
					if srv.count() != 2 {
						t.Fatalf("want 2 attempts, server saw %d", srv.count())
					}
					return
				}
				if srv.attempts() != 1 {
					t.Fatalf("want 1 attempt (no retry), server saw %d", srv.attempts())
				}
				var apiErr *APIError
				if !errors.As(err, &apiErr) || apiErr.Status != tt.status || apiErr.Detail != "first answer" {
					t.Fatalf("want *APIError %d with the envelope's detail, got %#v", tt.status, err)
				}
				if apiErr.Method != method || apiErr.Attempts != 1 {
					t.Fatalf("method/attempts: %+v", apiErr)
				}
			})
		}
	}
}

func TestRetriesExhaustedReturnLastAPIError(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "0")
		writeJSON(w, http.StatusServiceUnavailable, envelope("server_error", "unavailable", fmt.Sprintf("answer %d", n), ""))
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 2 })
	_, err := c.Get(context.Background(), "1", Transformations, 42)
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("want *APIError, got %T %v", err, err)
	}
	if srv.count() != 3 || apiErr.Attempts != 3 {
		t.Fatalf("want 3 attempts, server saw %d, error says %d", srv.count(), apiErr.Attempts)
	}
	if apiErr.Status != 503 || apiErr.Detail != "answer 2" || apiErr.Code != "unavailable" {
		t.Fatalf("want the last answer's envelope, got %+v", apiErr)
	}
	if strings.Contains(err.Error(), "giving up") {
		t.Fatalf("retryablehttp's generic error leaked: %v", err)
	}
	if !strings.Contains(err.Error(), "gave up after 3 attempts") {
		t.Fatalf("error should say how often it tried: %v", err)
	}
}

func TestZeroMaxRetriesMeansNoRetryOf5xx(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusServiceUnavailable, envelope("server_error", "x", "busy", ""))
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 0 })
	err := call(context.Background(), c, http.MethodGet)
	if StatusOf(err) != http.StatusServiceUnavailable || srv.count() != 1 {
		t.Fatalf("want one 503 attempt, got %d attempts, err %v", srv.count(), err)
	}
}

func Test429IsNotCountedAgainstMaxRetries(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch {
		case n < 4:
			w.Header().Set("Retry-After", "0")
			writeJSON(w, http.StatusTooManyRequests, envelope("throttled_error", "throttled", "slow down", ""))
		case n == 4:
			writeJSON(w, http.StatusServiceUnavailable, envelope("server_error", "x", "busy", ""))
		default:
			success(w, r)
		}
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 1 })
	if err := call(context.Background(), c, http.MethodGet); err != nil {
		t.Fatalf("four 429s and one 503 with max_retries 1: want success, got %v", err)
	}
	if srv.count() != 6 {
		t.Fatalf("want 6 attempts, got %d", srv.count())
	}
}

// hijackAfterBody reads the request body, then drops the connection
// without an answer: the request reached the service, the answer is lost.
func hijackAfterBody(t *testing.T, w http.ResponseWriter, r *http.Request) {
	_, _ = io.ReadAll(r.Body)
	hj, ok := w.(http.Hijacker)
	if !ok {
		t.Error("server cannot hijack")
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0) // a reset rather than a clean close
	}
	_ = conn.Close()
}

func TestConnectionDroppedAfterSendIsNotRetriedForPOST(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		hijackAfterBody(t, w, r)
	})
	c := newTestClient(t, srv.URL)
	_, err := c.Create(context.Background(), "1", Transformations, RecordInput{Plugin: Some[int64](7), Order: Some[int64](1)})
	if err == nil {
		t.Fatal("want an error")
	}
	if srv.count() != 1 {
		t.Fatalf("a create reached the server %d times; it must be exactly once", srv.count())
	}
	var tErr *TransportError
	if !errors.As(err, &tErr) || !tErr.MaybeSent || tErr.Method != http.MethodPost || tErr.Attempts != 1 {
		t.Fatalf("want *TransportError MaybeSent for the POST, got %#v", err)
	}
	if !MayHaveApplied(err) {
		t.Fatal("MayHaveApplied must be true")
	}
	if !strings.Contains(err.Error(), "/api/projects/1/pipeline_transformation_configs/") {
		t.Fatalf("error should name the path: %v", err)
	}
}

func TestConnectionDroppedIsRetriedForIdempotentMethods(t *testing.T) {
	for _, method := range []string{http.MethodGet, http.MethodPatch, http.MethodDelete} {
		t.Run(method, func(t *testing.T) {
			srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 0 {
					hijackAfterBody(t, w, r)
					return
				}
				success(w, r)
			})
			c := newTestClient(t, srv.URL)
			if err := call(context.Background(), c, method); err != nil {
				t.Fatalf("want success after a retry, got %v", err)
			}
			if srv.count() != 2 {
				t.Fatalf("want 2 attempts, got %d", srv.count())
			}
		})
	}
}

// closedPort returns an address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

func TestRefusedConnectionIsRetriedOnceForEveryMethod(t *testing.T) {
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete} {
		t.Run(method, func(t *testing.T) {
			c := newTestClient(t, closedPort(t), func(c *Config) { c.MaxRetries = 2 })
			err := call(context.Background(), c, method)
			var tErr *TransportError
			if !errors.As(err, &tErr) {
				t.Fatalf("want *TransportError, got %T %v", err, err)
			}
			if tErr.Attempts != 2 {
				t.Fatalf("want 2 attempts (a refused connection is retried once), got %d", tErr.Attempts)
			}
			if tErr.MaybeSent || MayHaveApplied(err) {
				t.Fatal("a request that never connected was not sent")
			}
			if !errors.Is(err, syscall.ECONNREFUSED) {
				t.Fatalf("the cause should be reachable: %v", err)
			}
		})
	}
}

// flakyTransport fails the first calls with the given error, then passes
// requests on.
type flakyTransport struct {
	next  http.RoundTripper
	fails int32
	err   error
	calls atomic.Int32
}

func (f *flakyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if f.calls.Add(1) <= f.fails {
		if r.Body != nil {
			_, _ = io.Copy(io.Discard, r.Body) // as if the body had been written
			_ = r.Body.Close()
		}
		return nil, f.err
	}
	return f.next.RoundTrip(r)
}

func TestPOSTTransportErrorsByCause(t *testing.T) {
	dialErr := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	dnsErr := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "server misbehaving", Name: "api.example", IsTemporary: true}}
	noHostErr := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "api.invalid", IsNotFound: true}}
	resetErr := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	tests := []struct {
		name         string
		err          error
		wantCreate   bool // the create went through on the retry
		wantAttempts int32
		maybeSent    bool // when it fails: whether it may have arrived
	}{
		{"connection refused", dialErr, true, 2, false},
		{"dns failure", dnsErr, true, 2, false},
		{"no such host", noHostErr, false, 1, false},
		{"reset after send", resetErr, false, 1, true},
		{"eof after send", io.ErrUnexpectedEOF, false, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
			ft := &flakyTransport{next: http.DefaultTransport, fails: 1, err: tt.err}
			c := newTestClient(t, srv.URL, func(c *Config) { c.Transport = ft })
			rec, err := c.Create(context.Background(), "1", Transformations, RecordInput{Plugin: Some[int64](7), Order: Some[int64](1)})
			if got := ft.calls.Load(); got != tt.wantAttempts {
				t.Fatalf("want %d attempts, got %d", tt.wantAttempts, got)
			}
			if tt.wantCreate {
				if err != nil || rec.ID != 42 || srv.count() != 1 {
					t.Fatalf("want one create after the retry, got %v (server saw %d)", err, srv.count())
				}
				return
			}
			if err == nil || srv.count() != 0 || MayHaveApplied(err) != tt.maybeSent {
				t.Fatalf("want an error (MayHaveApplied %v) and no second POST, got %v (server saw %d)", tt.maybeSent, err, srv.count())
			}
		})
	}
}

func TestBackoffHonoursRetryAfter(t *testing.T) {
	now := time.Now()
	tests := []struct {
		name       string
		retryAfter string
		lo, hi     time.Duration
		want       time.Duration
	}{
		{"seconds", "7", time.Millisecond, 30 * time.Second, 7 * time.Second},
		{"capped at RetryWaitMax", "120", time.Millisecond, 30 * time.Second, 30 * time.Second},
		{"zero waits the minimum", "0", 500 * time.Millisecond, 30 * time.Second, 500 * time.Millisecond},
		{"http date", now.Add(10 * time.Second).UTC().Format(http.TimeFormat), time.Millisecond, 30 * time.Second, 10 * time.Second},
		{"date in the past", now.Add(-time.Hour).UTC().Format(http.TimeFormat), 2 * time.Millisecond, time.Second, 2 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": []string{tt.retryAfter}}, Body: http.NoBody}
			got := backoff(tt.lo, tt.hi, 0, resp)
			lo := tt.want
			if tt.name == "http date" {
				lo -= time.Second // an HTTP date has one-second resolution
			}
			if got < lo || got > tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestBackoffWithoutRetryAfterGrowsAndIsCapped(t *testing.T) {
	lo, hi := 100*time.Millisecond, time.Second
	prev := time.Duration(0)
	for attempt := 0; attempt < 40; attempt++ {
		d := backoff(lo, hi, attempt, nil)
		if d < lo || d > hi {
			t.Fatalf("attempt %d: %s outside [%s, %s]", attempt, d, lo, hi)
		}
		if attempt < 3 && d < prev {
			t.Fatalf("attempt %d: %s shrank from %s", attempt, d, prev)
		}
		prev = d
	}
	if d := backoff(lo, hi, 10, nil); d != hi {
		t.Fatalf("a late retry should wait the cap, got %s", d)
	}
}

// TestRetryAfterByStatus: a 503's Retry-After is capped at RetryWaitMax,
// a 429's is waited in full (RetryWaitMax no longer shortens what the
// service asks for, which would hammer a service that throttles).
func TestRetryAfterByStatus(t *testing.T) {
	tests := []struct {
		status     int
		retryAfter string
		method     string
		// the retry comes within [atLeast, atMost] of the first answer.
		atLeast, atMost time.Duration
	}{
		{http.StatusServiceUnavailable, "3600", http.MethodGet, 0, 2 * time.Second},
		{http.StatusTooManyRequests, "1", http.MethodPost, 990 * time.Millisecond, 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 0 {
					w.Header().Set("Retry-After", tt.retryAfter)
					writeJSON(w, tt.status, envelope("error", "x", "first answer", ""))
					return
				}
				success(w, r)
			})
			c := newTestClient(t, srv.URL, func(c *Config) { c.RetryWaitMax = 20 * time.Millisecond })
			start := time.Now()
			if err := call(context.Background(), c, tt.method); err != nil {
				t.Fatal(err)
			}
			if el := time.Since(start); el < tt.atLeast || el > tt.atMost {
				t.Fatalf("Retry-After %s: the retry came after %s, want within [%s, %s]", tt.retryAfter, el, tt.atLeast, tt.atMost)
			}
			if srv.count() != 2 {
				t.Fatalf("want 2 attempts, got %d", srv.count())
			}
		})
	}
}

func TestRetryAfterPastDeadlineFailsAtOnce(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "840")
		writeJSON(w, http.StatusTooManyRequests, envelope("throttled_error", "throttled", "Request was throttled. Expected available in 840 seconds.", ""))
	})
	c := newTestClient(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	_, err := c.Create(ctx, "1", Transformations, RecordInput{Plugin: Some[int64](7), Order: Some[int64](1)})
	if el := time.Since(start); el > time.Second {
		t.Fatalf("want a failure at once, took %s", el)
	}
	var thrErr *ThrottledError
	if !errors.As(err, &thrErr) || thrErr.Err == nil || thrErr.Err.RetryAfter != 840 || thrErr.Attempts != 1 {
		t.Fatalf("want a ThrottledError carrying the 429, got %#v", err)
	}
	for _, want := range []string{"POST /api/projects/1/pipeline_transformation_configs/", "429", "again in 14m0s, at ", "time limit (10m0s left)", "not sent again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error should say %q: %v", want, err)
		}
	}
	if !isA[*ThrottledError](err) || StatusOf(err) != 429 || MayHaveApplied(err) || srv.count() != 1 {
		t.Fatalf("a throttled create did nothing: throttled %v, status %d, MayHaveApplied %v, %d attempts",
			isA[*ThrottledError](err), StatusOf(err), MayHaveApplied(err), srv.count())
	}

	// The pause holds every request of the client: one that would wait
	// past its own deadline is not sent at all, and fails at once too.
	_, err = c.Get(ctx, "1", Transformations, 42)
	if !errors.As(err, &thrErr) || thrErr.Err != nil || !isA[*ThrottledError](err) || srv.count() != 1 {
		t.Fatalf("want a ThrottledError without sending, got %v (%d attempts)", err, srv.count())
	}
	if !strings.Contains(err.Error(), "it was not sent") {
		t.Fatalf("the error should say the request was not sent: %v", err)
	}
}

func TestRetryAfterWithoutDeadlineIsBounded(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		writeJSON(w, http.StatusTooManyRequests, envelope("throttled_error", "throttled", "wait", ""))
	})
	// The fake clock stands still: the time left is the whole bound.
	c, err := newClient(testConfig(srv.URL), throttletest.NewClock(true))
	if err != nil {
		t.Fatal(err)
	}
	err = call(context.Background(), c, http.MethodGet)
	var thrErr *ThrottledError
	if !errors.As(err, &thrErr) || thrErr.Wait != time.Hour || thrErr.Left != maxThrottleWaitWithoutDeadline || srv.count() != 1 {
		t.Fatalf("a call without deadline waits at most %s, not the hour asked for: got %#v (%d requests)",
			maxThrottleWaitWithoutDeadline, err, srv.count())
	}
}

func TestContextCancelStopsRetryAfterWait(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		writeJSON(w, http.StatusTooManyRequests, envelope("throttled_error", "throttled", "wait", ""))
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.RetryWaitMax = time.Minute })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	err := call(ctx, c, http.MethodGet)
	if el := time.Since(start); el > time.Second {
		t.Fatalf("cancel should stop the wait at once, took %s", el)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	if srv.count() != 1 {
		t.Fatalf("want no attempt after cancel, got %d", srv.count())
	}
}

func TestCancelledContextSendsNothing(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
	c := newTestClient(t, srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := call(ctx, c, http.MethodPost)
	if !errors.Is(err, context.Canceled) || srv.count() != 0 || MayHaveApplied(err) {
		t.Fatalf("want context.Canceled before sending, got %v (server saw %d)", err, srv.count())
	}
}

func TestRequestTimeoutBoundsEachAttempt(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
			return
		}
		success(w, r)
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.RequestTimeout = 30 * time.Millisecond })
	start := time.Now()
	if _, err := c.Get(context.Background(), "1", Transformations, 42); err != nil {
		t.Fatalf("want the retry to succeed, got %v", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("the first attempt should have timed out quickly, took %s", el)
	}
}

// truncated answers 200/201 with a body cut short: the answer was lost in
// transit after the service did the work.
func truncated(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Length", "500")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"id": 4`))
}

func TestBodyCutShort(t *testing.T) {
	t.Run("GET is retried, and the last answer's envelope is reported", func(t *testing.T) {
		srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
			if n == 0 {
				truncated(w, 200)
				return
			}
			writeJSON(w, 503, envelope("server_error", "x", "still busy", ""))
		})
		c := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 1 })
		_, err := c.Get(context.Background(), "1", Transformations, 42)
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.Status != 503 || apiErr.Detail != "still busy" || srv.count() != 2 {
			t.Fatalf("want the 503's envelope after 2 attempts, got %v (%d)", err, srv.count())
		}
	})
	t.Run("POST is not retried", func(t *testing.T) {
		srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { truncated(w, 201) })
		c := newTestClient(t, srv.URL)
		_, err := c.Create(context.Background(), "1", Transformations, RecordInput{Plugin: Some[int64](7), Order: Some[int64](1)})
		if !MayHaveApplied(err) || srv.count() != 1 {
			t.Fatalf("want one uncertain create, got %v (%d)", err, srv.count())
		}
	})
}

// TestOversizedAnswerIsReadOnceAndNotRetried: an answer past the cap is read
// up to it, once, and fails with an error naming the request and the cap.
func TestOversizedAnswerIsReadOnceAndNotRetried(t *testing.T) {
	var sent atomic.Int64
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"count": 0, "next": null, "previous": null, "results": []}`)
		chunk := bytes.Repeat([]byte(" "), 1<<20)
		for range 80 { // 80 MiB of spaces: still JSON, but past the cap
			m, err := w.Write(chunk)
			sent.Add(int64(m))
			if err != nil {
				return
			}
		}
	})
	c := newTestClient(t, srv.URL)
	_, err := c.List(context.Background(), "1", Transformations, 100, 0)
	var big *AnswerTooLargeError
	if !errors.As(err, &big) || big.Method != http.MethodGet || !strings.Contains(big.Path, "/pipeline_transformation_configs/") {
		t.Fatalf("want an *AnswerTooLargeError of the GET, got %T %v", err, err)
	}
	if !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("the error does not name the cap: %v", err)
	}
	if srv.count() != 1 {
		t.Errorf("the answer was asked for %d times, want once", srv.count())
	}
	if s := sent.Load(); s >= 80<<20 {
		t.Errorf("the client read the whole %d-byte answer instead of stopping at the cap", s)
	}
}

// roundTrips counts the requests that enter the client's transport, those
// the throttle holds back included.
type roundTrips struct {
	next http.RoundTripper
	n    atomic.Int32
}

func (r *roundTrips) RoundTrip(req *http.Request) (*http.Response, error) {
	r.n.Add(1)
	return r.next.RoundTrip(req)
}

func TestHeldPastDeadlineIsNotRetried(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "840")
		writeJSON(w, http.StatusTooManyRequests, envelope("throttled_error", "throttled", "wait", ""))
	})
	cfg := testConfig(srv.URL)
	cfg.RetryWaitMin = 50 * time.Millisecond
	clk := throttletest.NewClock(true)
	c, err := newClient(cfg, clk)
	if err != nil {
		t.Fatal(err)
	}
	rt := &roundTrips{next: c.http.Transport}
	c.http.Transport = rt
	// No deadline: the fake clock bounds the call at 5 minutes, before the
	// pause of 14 minutes ends.
	if err := call(context.Background(), c, http.MethodGet); !isA[*ThrottledError](err) {
		t.Fatalf("want the first GET throttled, got %v", err)
	}
	err = call(context.Background(), c, http.MethodGet)
	var thrErr *ThrottledError
	if !errors.As(err, &thrErr) || thrErr.Err != nil || srv.count() != 1 {
		t.Fatalf("want a ThrottledError without sending, got %v (server saw %d)", err, srv.count())
	}
	if got := rt.n.Load(); got != 2 {
		t.Fatalf("a GET held back past its deadline must fail at once, not be retried: %d round trips, want 2", got)
	}
	if len(clk.Sleeps()) != 0 {
		t.Fatalf("nothing should wait for the pause: %v", clk.Sleeps())
	}
}

func TestRetryAfterDateIsReadOnTheThrottlesClock(t *testing.T) {
	clk := throttletest.NewClock(true)
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n > 0 {
			success(w, r)
			return
		}
		w.Header().Set("Retry-After", clk.Now().Add(10*time.Minute).Format(http.TimeFormat))
		writeJSON(w, http.StatusTooManyRequests, envelope("throttled_error", "throttled", "wait", ""))
	})
	c, err := newClient(testConfig(srv.URL), clk)
	if err != nil {
		t.Fatal(err)
	}
	// Ten minutes on the clock the throttle runs on: past the 5 minutes a
	// call without deadline waits.
	err = call(context.Background(), c, http.MethodGet)
	var thrErr *ThrottledError
	if !errors.As(err, &thrErr) || thrErr.Wait != 10*time.Minute || srv.count() != 1 {
		t.Fatalf("want a 10 minute pause past the bound, got %v (%d requests)", err, srv.count())
	}
}
