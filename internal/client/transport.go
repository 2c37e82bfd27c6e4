package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

// callState follows one API call across its HTTP attempts.
type callState struct {
	method string
	path   string
	// start is when the call began, on the throttle's clock.
	start time.Time
	// attempts counts HTTP attempts that passed the throttle.
	attempts atomic.Int32
	// maybeSent is set once an attempt failed in a way that does not prove
	// the request stayed on this side.
	maybeSent atomic.Bool
	// failures counts the 5xx answers and transport errors that were
	// retried or gave up (not 429s); the retry policy's, on the call's
	// goroutine.
	failures int
	// throttledPast is set when a 429's pause ends after the deadline.
	throttledPast *throttle.ClosedError
	// lastErr is the error the retry policy last saw (nil for an answer),
	// and refusals how many attempts were refused; the retry policy's.
	lastErr  error
	refusals int
}

type callStateKey struct{}

func withCallState(ctx context.Context, st *callState) context.Context {
	return context.WithValue(ctx, callStateKey{}, st)
}

func callStateFrom(ctx context.Context) *callState {
	st, _ := ctx.Value(callStateKey{}).(*callState)
	return st
}

// failed counts one retryable failure and reports whether MaxRetries
// allows a retry for it.
func (st *callState) failed(maxRetries int) bool {
	st.failures++
	return st.failures <= maxRetries
}

// deadline is when the call stops waiting for the service's throttling:
// ctx's deadline, or maxThrottleWaitWithoutDeadline after the call began.
func (st *callState) deadline(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return st.start.Add(maxThrottleWaitWithoutDeadline)
}

// throttledError is the *ThrottledError of a pause that ends past the
// deadline; answer is the call's own 429, if it got one.
func (st *callState) throttledError(closed *throttle.ClosedError, answer *APIError) *ThrottledError {
	return &ThrottledError{
		Method: st.method, Path: st.path,
		Until: closed.Until, Wait: closed.Wait, Left: closed.Left,
		Attempts:  int(st.attempts.Load()),
		MaybeSent: st.maybeSent.Load(),
		Err:       answer,
	}
}

// attemptTransport wraps the real transport and sees every HTTP attempt,
// retries and redirects included: it passes each through the throttle,
// tells the throttle about 429s and other answers, and applies the
// per-attempt timeout and logs each attempt once (logAttempt).
type attemptTransport struct {
	next     http.RoundTripper
	timeout  time.Duration
	throttle *throttle.Throttle
	clock    *serviceClock
}

func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		return nil, err // nothing was sent
	}
	st := callStateFrom(ctx)
	if st == nil { // not one of ours; still count and log it sensibly
		st = &callState{method: req.Method, path: req.URL.RequestURI()}
	}

	if st.start.IsZero() { // not one of ours
		st.start = t.throttle.Now()
	}
	err := t.throttle.Wait(ctx, st.deadline(ctx), func(d time.Duration) {
		tflog.Debug(ctx, fmt.Sprintf("rate limit: waiting %s before %s %s", d.Round(time.Millisecond), st.method, st.path))
	})
	if err != nil {
		return nil, err // nothing was sent
	}
	sentAt := t.throttle.Now()
	attempt := st.attempts.Add(1)

	// The timeout bounds this attempt only, including reading the body,
	// and not the rate-limit wait above nor the backoff between attempts.
	var cancel context.CancelFunc
	if t.timeout > 0 {
		var actx context.Context
		actx, cancel = context.WithTimeout(ctx, t.timeout)
		req = req.WithContext(actx)
	}
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	elapsed := time.Since(start)
	if err != nil {
		if cancel != nil {
			cancel()
		}
		if !notSent(err) {
			st.maybeSent.Store(true)
		}
		logAttempt(ctx, req, attempt, elapsed, "error", err.Error())
		return nil, err
	}
	if t.clock != nil {
		t.clock.observe(start, start.Add(elapsed), resp.Header.Get("Date"))
	}
	t.observe(ctx, st, sentAt, resp)
	if cancel != nil {
		resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	}
	logAttempt(ctx, req, attempt, elapsed, "status", resp.StatusCode)
	return resp, nil
}

// observe tells the throttle how the service answered a request sent at
// sentAt, and logs a pause that began.
func (t *attemptTransport) observe(ctx context.Context, st *callState, sentAt time.Time, resp *http.Response) {
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		retryAfter, ok := parseRetryAfter(resp.Header.Get("Retry-After"), t.throttle.Now())
		p, began := t.throttle.Throttled(sentAt, retryAfter, ok)
		if began {
			tflog.Warn(ctx, p.Describe(st.method, st.path), map[string]any{
				"wait_ms": durationMS(p.Wait), "requests_per_minute": math.Round(p.PerMinute),
			})
		}
	case resp.StatusCode < 500:
		t.throttle.Answered(sentAt)
	}
}

// cancelOnClose releases an attempt's timeout once its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// defaultTransport is net/http's default (proxy from the environment,
// HTTP/2, timeouts) with enough idle connections for Terraform's parallel
// operations against one host.
func defaultTransport() http.RoundTripper {
	base, ok := http.DefaultTransport.(*http.Transport)
	if !ok { // replaced by someone; use it as it is
		return http.DefaultTransport
	}
	t := base.Clone()
	t.MaxIdleConnsPerHost = 16
	return t
}

var (
	errTooManyRedirects = errors.New("stopped after 10 redirects")
	errInsecureRedirect = errors.New("refusing a redirect from https to http, which would expose the API key")
)

// checkRedirect follows redirects for GET only. A write that is redirected
// comes back as an error instead: Go would resend a POST as a GET without
// its body, which would look like a success.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if via[0].Method != http.MethodGet {
		return http.ErrUseLastResponse
	}
	if len(via) >= 10 {
		return errTooManyRedirects
	}
	if req.URL.Scheme == "http" && via[0].URL.Scheme == "https" {
		return errInsecureRedirect
	}
	return nil
}
