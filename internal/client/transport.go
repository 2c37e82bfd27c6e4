package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// attemptTransport sees every HTTP attempt, retries and redirects
// included: the silent host, the throttle, the per-attempt timeout, the
// service's clock (from the Date of its answers) and the attempt's one log
// line.
type attemptTransport struct {
	next    http.RoundTripper
	timeout time.Duration
	client  *Client
}

func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, c := req.Context(), t.client
	st, _ := ctx.Value(callStateKey{}).(*callState)
	if n := c.unanswered.Load(); n >= silentAfter {
		return nil, &SilentHostError{Host: c.hostPort, Attempts: int(n), Timeout: t.timeout}
	}
	err := c.throttle.Wait(ctx, st.deadline(ctx), func(d time.Duration) {
		tflog.Debug(ctx, fmt.Sprintf("rate limit: waiting %s before %s %s", d.Round(time.Millisecond), st.method, st.path))
	})
	if err != nil {
		return nil, err // nothing was sent, a cancelled ctx's request neither
	}
	sentAt := c.throttle.Now()
	attempt := st.attempts.Add(1)

	// The timeout bounds the attempt and the reading of its body, not the
	// throttle's wait nor the backoff.
	cancel := context.CancelFunc(func() {})
	if t.timeout > 0 {
		var actx context.Context
		actx, cancel = context.WithTimeoutCause(ctx, t.timeout, &AttemptTimeoutError{Timeout: t.timeout})
		req = req.WithContext(actx)
	}
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	elapsed := time.Since(start)
	logged := map[string]any{ // the attempt's one line (go-retryablehttp has no Logger: its lines repeated these)
		"method": req.Method, "path": req.URL.RequestURI(), "attempt": attempt, "duration_ms": durationMS(elapsed),
	}
	if err != nil {
		cancel()
		if isA[*AttemptTimeoutError](err) {
			c.unanswered.Add(1)
		}
		if !notSent(err) {
			st.maybeSent.Store(true)
		}
		logged["error"] = err.Error()
		tflog.Debug(ctx, "API request", logged)
		return nil, err
	}
	c.unanswered.Store(0)
	// Date is truncated to the second and was read somewhere between sending
	// and receiving: the middle of both ranges is the best guess.
	if date, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
		offset := date.Add(500 * time.Millisecond).Sub(start.Add(elapsed / 2))
		c.clockOffset.Store(&offset)
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		retryAfter, ok := parseRetryAfter(resp.Header.Get("Retry-After"), c.throttle.Now())
		if p, began := c.throttle.Throttled(sentAt, retryAfter, ok); began {
			tflog.Warn(ctx, p.Describe(st.method, st.path), map[string]any{
				"wait_ms": durationMS(p.Wait), "requests_per_minute": math.Round(p.PerMinute),
			})
		}
	case resp.StatusCode < 500:
		c.throttle.Answered(sentAt)
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	logged["status"] = resp.StatusCode
	tflog.Debug(ctx, "API request", logged)
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

// AttemptTimeoutError is an attempt the service did not answer, or finish
// answering, within Config.RequestTimeout; it is a context.DeadlineExceeded.
type AttemptTimeoutError struct{ Timeout time.Duration }

func (e *AttemptTimeoutError) Error() string {
	return fmt.Sprintf("no answer within %s, the request_timeout of one attempt", e.Timeout)
}

// Unwrap makes it a context.DeadlineExceeded.
func (e *AttemptTimeoutError) Unwrap() error { return context.DeadlineExceeded }

// silentAfter is how many attempts in a row the service may leave
// unanswered within the request timeout before the client sends no more: a
// host that accepts and never answers would hold every request of the run
// for as long again. Any answer starts the count again.
const silentAfter = 2

// SilentHostError is a request not sent because the service answered none
// of the last attempts of the run.
type SilentHostError struct {
	Host     string
	Attempts int
	Timeout  time.Duration
}

func (e *SilentHostError) Error() string {
	return fmt.Sprintf("not sent: %q answered none of the last %d requests within %s each (request_timeout), "+
		"so this run sends it no more", e.Host, e.Attempts, e.Timeout)
}

// defaultTransport is net/http's default with enough idle connections for
// Terraform's parallel operations against one host.
func defaultTransport() http.RoundTripper {
	base, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t := base.Clone()
	t.MaxIdleConnsPerHost = 16
	return t
}

var errTooManyRedirects = errors.New("stopped after 10 redirects")

// RedirectError is a redirect not followed because it leads away from the
// configured scheme, host and port, where the API key would go along.
type RedirectError struct{ To string } // the target's scheme://host[:port]

func (e *RedirectError) Error() string {
	return fmt.Sprintf("the service redirected the request to %s, which is not followed: the API key goes only to "+
		"the scheme, host and port of the host setting. If the service now lives there, set host to %s", e.To, e.To)
}

// checkRedirect follows redirects for GET only (Go would resend a redirected
// POST as a GET without its body, which would look like a success), and only
// within the origin of the first request: Go's own rule sends the key to
// another port or scheme of the host, and to its subdomains.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if via[0].Method != http.MethodGet {
		return http.ErrUseLastResponse
	}
	if len(via) >= 10 {
		return errTooManyRedirects
	}
	if origin(req.URL) != origin(via[0].URL) {
		return &RedirectError{To: strings.ToLower(req.URL.Scheme) + "://" + req.URL.Host}
	}
	return nil
}

// origin is u's scheme://host:port, the port spelled out.
func origin(u *url.URL) string {
	scheme, port := strings.ToLower(u.Scheme), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

func durationMS(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

// ServiceTime converts a moment t of this machine's clock to the service's,
// within about a second; false before any answer carried a Date.
func (c *Client) ServiceTime(t time.Time) (time.Time, bool) {
	if offset := c.clockOffset.Load(); offset != nil {
		return t.Add(*offset), true
	}
	return t, false
}
