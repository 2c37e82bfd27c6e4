package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// callState follows one API call across its HTTP attempts.
type callState struct {
	method string
	path   string
	// attempts counts HTTP attempts that passed the rate limiter.
	attempts atomic.Int32
	// maybeSent is set once an attempt failed in a way that does not prove
	// the request stayed on this side.
	maybeSent atomic.Bool
}

type callStateKey struct{}

func withCallState(ctx context.Context, st *callState) context.Context {
	return context.WithValue(ctx, callStateKey{}, st)
}

func callStateFrom(ctx context.Context) *callState {
	st, _ := ctx.Value(callStateKey{}).(*callState)
	return st
}

// attemptTransport wraps the real transport and sees every HTTP attempt,
// retries and redirects included: it applies the rate limit, the
// per-attempt timeout and the per-attempt log lines.
type attemptTransport struct {
	next    http.RoundTripper
	timeout time.Duration
	limiter *limiter // nil: unlimited
	clock   *serviceClock
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

	if t.limiter != nil {
		err := t.limiter.wait(ctx, func(d time.Duration) {
			tflog.Info(ctx, fmt.Sprintf("rate limit: waiting %s before %s %s", d.Round(time.Millisecond), st.method, st.path))
		})
		if err != nil {
			return nil, err
		}
	}
	attempt := st.attempts.Add(1)
	tflog.Debug(ctx, "API request", map[string]any{"method": req.Method, "path": req.URL.RequestURI(), "attempt": attempt})

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
		tflog.Debug(ctx, "API request failed", map[string]any{
			"method": req.Method, "path": req.URL.RequestURI(), "attempt": attempt,
			"duration_ms": durationMS(elapsed), "error": err.Error(),
		})
		return nil, err
	}
	if t.clock != nil {
		t.clock.observe(start, start.Add(elapsed), resp.Header.Get("Date"))
	}
	if cancel != nil {
		resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	}
	tflog.Debug(ctx, "API response", map[string]any{
		"method": req.Method, "path": req.URL.RequestURI(), "attempt": attempt,
		"status": resp.StatusCode, "duration_ms": durationMS(elapsed),
	})
	return resp, nil
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
