// The retry policy over go-retryablehttp, and what a failed connection
// means: a 429 until the deadline, outside MaxRetries; 502, 503, 504 and
// transport errors but of a POST that may have left (it could create
// twice); never a 500 (deterministic on the live service), an answer too
// large, or what waiting cannot mend (netHint's failures, failed at once
// with a hint of what to check). A resolver or handshake that times out
// and other TLS alerts are none of these, and are retried.

package client

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

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

// retrying is the go-retryablehttp client of one call: its retry policy
// and backoff, and its last answer or error as it is, not the library's
// "giving up".
func (c *Client) retrying(ctx context.Context, st *callState) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:   c.http,
		RetryMax:     math.MaxInt32, // the retry policy alone decides how often (429s are not counted)
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
		CheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {
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
		},
		Backoff: func(_, _ time.Duration, _ int, resp *http.Response) time.Duration {
			if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
				// The throttle holds the request until the pause ends.
				tflog.Debug(ctx, fmt.Sprintf("retrying %s %s after 429 once the pause ends", st.method, st.path))
				return 0
			}
			d, why := backoff(c.waitMin, c.waitMax, st.failures-1, resp), "a transport error"
			switch {
			case resp != nil:
				why = resp.Status
			case st.lastErr != nil:
				why = plainError(st.lastErr).Error()
				if connRefused(st.lastErr) { // the one quick retry
					d = c.waitMin
				}
			}
			tflog.Info(ctx, fmt.Sprintf("retrying %s %s in %s after %s (retry %d of %d)",
				st.method, st.path, d.Round(time.Millisecond), why, st.failures, c.maxRetries))
			return d
		},
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

// wsaeconnrefused is what Windows returns instead of syscall.ECONNREFUSED.
const wsaeconnrefused = 10061

// connRefused reports a refused connection: a wrong port, or a service
// restarting, which one retry after RetryWaitMin covers (a POST's too).
func connRefused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || runtime.GOOS == "windows" && errors.Is(err, syscall.Errno(wsaeconnrefused))
}

// handshakeAlerts are the TLS alerts of a handshake the server refuses, as
// crypto/tls words them (its alert type is unexported).
var handshakeAlerts = []string{
	"tls: handshake failure", "tls: bad certificate", "tls: unsupported certificate", "tls: revoked certificate",
	"tls: expired certificate", "tls: unknown certificate", "tls: unknown certificate authority", "tls: access denied",
	"tls: protocol version not supported", "tls: insufficient security level", "tls: unrecognized name",
	"tls: certificate required", "tls: no application protocol", "tls: encrypted client hello required",
}

// refusedHere is what a certificate refused here, or a server that does not
// speak TLS, means and what to check; "" for any other failure.
func refusedHere(err error, quoted, where string) string {
	switch {
	case isA[x509.UnknownAuthorityError](err):
		return "the TLS certificate of " + quoted + " is signed by an authority this machine does not trust: " +
			"check that " + where + " names the service itself, or add the authority that signed its certificate " +
			"to this machine's trusted certificates (on Linux, SSL_CERT_FILE or SSL_CERT_DIR may name a bundle that holds it)"
	case isA[x509.HostnameError](err):
		return "the TLS certificate of " + quoted + " is issued for other names: check that " + where +
			" uses a name the certificate is for"
	case isA[x509.CertificateInvalidError](err):
		return "the TLS certificate of " + quoted + " is not valid: check this machine's clock, " +
			"and that the service's certificate is current"
	case isA[*tls.CertificateVerificationError](err):
		return "the TLS certificate of " + quoted + " cannot be verified: check that " + where +
			" names the service itself, and this machine's trusted certificates"
	case errors.Is(err, http.ErrSchemeMismatch):
		return quoted + " answered plain HTTP to an https request: check the scheme and port in " + where
	case isA[tls.RecordHeaderError](err):
		return quoted + " does not speak TLS on that port: check the scheme and port in " + where
	}
	return ""
}

// netHint says what a failure that waiting cannot mend, or a refused
// connection, means and what to check at host; "" for any other failure.
func netHint(err error, host string) string {
	quoted := `"` + host + `"`
	where := "the host setting"
	var opErr *net.OpError
	proxy := errors.As(err, &opErr) && opErr.Op == "proxyconnect"
	if proxy { // Go takes the proxy from the environment
		quoted = "the proxy (HTTPS_PROXY or HTTP_PROXY)"
		where = "HTTPS_PROXY and HTTP_PROXY"
	}

	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		name := cmp.Or(dnsErr.Name, host)
		if proxy {
			return `cannot find the proxy's host "` + name + `": check ` + where
		}
		return `cannot find the host "` + name + `": check the host setting for a typo`
	}
	if connRefused(err) {
		at := quoted
		if addr := dialedAddr(err); addr != "" && addr != host {
			at += " (" + addr + ")"
		}
		return "nothing accepts connections at " + at + ": check the port in " + where + " and that the service is running there"
	}
	if hint := refusedHere(err, quoted, where); hint != "" {
		return hint
	}
	var remote *net.OpError
	if errors.As(err, &remote) && remote.Op == "remote error" && remote.Err != nil && slices.Contains(handshakeAlerts, remote.Err.Error()) {
		return quoted + " refused the TLS handshake: check that " + where + " names the service's https address; " +
			"a server that requires a client certificate or TLS settings this client lacks refuses it too"
	}
	return ""
}

// dialedAddr is the address a failed dial tried, "" when err names none.
func dialedAddr(err error) string {
	var opErr *net.OpError
	for errors.As(err, &opErr) {
		if opErr.Op == "dial" && opErr.Addr != nil {
			return opErr.Addr.String()
		}
		err = opErr.Err
	}
	return ""
}
