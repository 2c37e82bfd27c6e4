package client

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

// The retry policy in one place:
//
//   - 429 is retried for every method, until the call's deadline: the
//     service refused the request without doing anything. It pauses every
//     request of the client until its Retry-After and slows the client's
//     pace (package throttle). It does not count against MaxRetries. When the
//     pause ends after the deadline, the call fails at once with a
//     *ThrottledError that says when the service accepts requests again.
//   - 502, 503, 504 and transport errors are retried for GET, PATCH and
//     DELETE, which are safe to repeat here (PATCH sets values; DELETE of a
//     deleted record only disables it again), at most MaxRetries times,
//     waiting an exponential backoff between RetryWaitMin and RetryWaitMax
//     (a Retry-After of such an answer is capped at RetryWaitMax).
//   - POST (create, job, migrate) is retried on a transport error only when the
//     request provably never reached the service: the dial failed
//     (connection refused, DNS failure, dial timeout). A 5xx, a reset or a
//     timeout after the request was written may follow a create that
//     happened, and a second POST would create a second record.
//   - Failures that waiting cannot mend fail at once, for every method
//     (unreachable.go): a host that DNS says does not exist, a TLS
//     certificate this machine does not accept, a TLS handshake the server
//     refuses, plain HTTP on an https URL. A refused connection is retried
//     once, after RetryWaitMin (see refusedRetries).
//   - 500 is never retried: on the live service it is a deterministic
//     answer (DELETE of an unknown id, a bad rearrange key).
//   - An answer larger than the client reads (*AnswerTooLargeError) is
//     never retried: the same request brings the same answer.
//   - A cancelled or expired ctx stops everything at once.

// maxThrottleWaitWithoutDeadline bounds how long a call whose ctx has no
// deadline waits for the service's throttling, counted from its start: the
// default read timeout of a resource.
const maxThrottleWaitWithoutDeadline = 5 * time.Minute

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
				return st.refusals <= refusedRetries && st.failed(c.maxRetries), nil
			}
			return retryableTransportError(st.method, err) && st.failed(c.maxRetries), nil
		}
		switch resp.StatusCode {
		case http.StatusTooManyRequests:
			return c.retryThrottled(ctx, st), nil
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return repeatable(st.method) && st.failed(c.maxRetries), nil
		}
		return false, nil
	}
}

// retryThrottled decides on a 429 (already recorded by the throttle):
// retry once the pause ends, unless it ends after the call's deadline.
func (c *Client) retryThrottled(ctx context.Context, st *callState) bool {
	until := c.throttle.ResumeTime()
	deadline := st.deadline(ctx)
	if !until.After(deadline) {
		return true
	}
	now := c.throttle.Now()
	st.throttledPast = &throttle.ClosedError{Until: until, Wait: until.Sub(now), Left: deadline.Sub(now)}
	return false
}

// repeatable reports whether a request of method may be sent again after
// it possibly reached the service.
func repeatable(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

func retryableTransportError(method string, err error) bool {
	if permanentTransportError(err) {
		return false
	}
	return notSent(err) || repeatable(method)
}

// notSent reports whether err proves that the request never reached the
// service: no connection was made, so no byte of it was written.
func notSent(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	if rejectedBeforeSending(err) {
		return true
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		// "dial" covers refused, unreachable and timed-out connects;
		// "proxyconnect" a proxy that could not be reached.
		return opErr.Op == "dial" || opErr.Op == "proxyconnect"
	}
	return false
}

// permanentTransportError reports errors that a retry cannot fix.
func permanentTransportError(err error) bool {
	switch {
	case cannotMend(err):
		return true
	case errors.Is(err, errTooManyRedirects), errors.Is(err, errInsecureRedirect):
		return true
	}
	var big *AnswerTooLargeError
	if errors.As(err, &big) { // the same request brings the same answer
		return true
	}
	// Waits that would end after the deadline: trying again changes nothing.
	var closed *throttle.ClosedError
	var paceErr *throttle.PaceError
	if errors.As(err, &closed) || errors.As(err, &paceErr) {
		return true
	}
	return strings.Contains(err.Error(), "unsupported protocol scheme")
}

// backoff returns the wait before retry number attempt+1 of a 5xx or a
// transport error (and the pause of a 429 without Retry-After): the
// server's Retry-After when it sent one, else an exponential backoff from lo with a
// little jitter (so that Terraform's parallel operations that failed
// together do not retry in lockstep); always within [lo, hi].
func backoff(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return clamp(d, lo, hi)
		}
	}
	d := hi
	if attempt < 30 {
		if exp := lo << uint(attempt); exp > 0 && exp < hi {
			d = exp
		}
	}
	if j := int64(d / 4); j > 0 {
		d += time.Duration(rand.Int64N(j))
	}
	return clamp(d, lo, hi)
}

func clamp(d, lo, hi time.Duration) time.Duration {
	return min(max(d, lo), hi)
}

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date.
// A date in the past gives 0.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(24*time.Hour/time.Second) {
			secs = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}
