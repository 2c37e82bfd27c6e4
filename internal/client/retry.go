package client

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

// The retry policy: a 429 until the deadline, outside MaxRetries; 502, 503,
// 504 and transport errors but of a POST that may have left (it could create
// twice); never a 500 (deterministic on the live service), an answer too
// large, or what waiting cannot mend (netfail.go).

// maxThrottleWaitWithoutDeadline bounds the throttling a call without a
// deadline waits for: the default read timeout of a resource.
const maxThrottleWaitWithoutDeadline = 5 * time.Minute

// callState follows one API call across its HTTP attempts.
type callState struct {
	method, path string
	start        time.Time // on the throttle's clock
	attempts     atomic.Int32
	maybeSent    atomic.Bool // an attempt failed without proof that it never left
	// The retry policy's, on the call's goroutine.
	failures, refusals, timeouts int
	lastErr                      error
	throttledPast                *throttle.ClosedError
}

type callStateKey struct{}

// failed counts a retryable failure and reports whether MaxRetries allows its retry.
func (st *callState) failed(maxRetries int) bool {
	st.failures++
	return st.failures <= maxRetries
}

// deadline is when the call stops waiting for the service's throttling.
func (st *callState) deadline(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return st.start.Add(maxThrottleWaitWithoutDeadline)
}

// throttledError is the error of a pause that ends past ctx's deadline,
// with the call's own 429 if it got one.
func (st *callState) throttledError(ctx context.Context, closed *throttle.ClosedError, answer *APIError) *ThrottledError {
	limit, _ := ctx.Value(limitKey{}).(error)
	return &ThrottledError{
		Limit:  limit,
		Method: st.method, Path: st.path,
		Until: closed.Until, Wait: closed.Wait, Left: closed.Left,
		Attempts:  int(st.attempts.Load()),
		MaybeSent: st.maybeSent.Load(),
		Err:       answer,
	}
}

// retryPolicy returns the CheckRetry of one call.
func (c *Client) retryPolicy(st *callState) retryablehttp.CheckRetry {
	return func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return false, ctxErr
		}
		st.lastErr = err
		if err != nil {
			if connRefused(err) {
				st.refusals++
				return st.refusals <= 1 && st.failed(c.maxRetries), nil
			}
			if isA[*AttemptTimeoutError](err) { // a second chance, not max_retries' (DESIGN.md)
				st.timeouts++
				if st.timeouts > 1 {
					return false, nil
				}
			}
			return !permanentTransportError(err) && (notSent(err) || st.method != http.MethodPost) && st.failed(c.maxRetries), nil
		}
		switch resp.StatusCode {
		case http.StatusTooManyRequests: // once the pause ends, unless that is past the deadline
			until, deadline := c.throttle.ResumeTime(), st.deadline(ctx)
			if until.After(deadline) {
				now := c.throttle.Now()
				st.throttledPast = &throttle.ClosedError{Until: until, Wait: until.Sub(now), Left: deadline.Sub(now)}
			}
			return !until.After(deadline), nil
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return st.method != http.MethodPost && st.failed(c.maxRetries), nil
		}
		return false, nil
	}
}

// notSent reports whether err proves that no byte of the request was
// written; of TLS failures only those found on this side do (with TLS 1.3 a
// server's alert may come after the request).
func notSent(err error) bool {
	var opErr *net.OpError
	return isA[*net.DNSError](err) || refusedHere(err, "", "") != "" || isA[*SilentHostError](err) ||
		errors.As(err, &opErr) && (opErr.Op == "dial" || opErr.Op == "proxyconnect")
}

// permanentTransportError reports errors that a retry cannot fix: netHint's
// but a refused connection, and the client's own refusals.
func permanentTransportError(err error) bool {
	return !connRefused(err) && netHint(err, "") != "" || isA[*SilentHostError](err) || errors.Is(err, errTooManyRedirects) || isA[*RedirectError](err) ||
		isA[*AnswerTooLargeError](err) || isA[*throttle.ClosedError](err) || isA[*throttle.PaceError](err) ||
		strings.Contains(err.Error(), "unsupported protocol scheme")
}

// backoff is the wait before retry attempt+1 (and a 429's pause without
// Retry-After) within [lo, hi]: the answer's Retry-After, or DefaultBackoff
// with a jitter, so that parallel operations do not retry in lockstep.
func backoff(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return min(max(d, lo), hi)
		}
	}
	d := retryablehttp.DefaultBackoff(lo, hi, attempt, nil)
	if j := int64(d / 4); j > 0 {
		d += time.Duration(rand.Int64N(j))
	}
	return min(max(d, lo), hi)
}

// parseRetryAfter reads a Retry-After value, delay seconds (at most a day)
// or an HTTP date (the past gives 0), against now.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil && secs >= 0 {
		return time.Duration(min(secs, 24*60*60)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
