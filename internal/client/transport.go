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
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// attemptTransport sees every HTTP attempt, retries and redirects
// included: the silent host, the throttle, the per-attempt timeout, the
// service's clock and the attempt's one log line.
type attemptTransport struct {
	next    http.RoundTripper
	timeout time.Duration
	client  *Client
}

func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	st, _ := ctx.Value(callStateKey{}).(*callState)
	if err := t.client.silent.refuse(t.client.hostPort, t.timeout); err != nil {
		return nil, err
	}
	thr := t.client.throttle
	err := thr.Wait(ctx, st.deadline(ctx), func(d time.Duration) {
		tflog.Debug(ctx, fmt.Sprintf("rate limit: waiting %s before %s %s", d.Round(time.Millisecond), st.method, st.path))
	})
	if err != nil {
		return nil, err // nothing was sent, a cancelled ctx's request neither
	}
	sentAt := thr.Now()
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
	t.client.silent.ended(err)
	if err != nil {
		cancel()
		if !notSent(err) {
			st.maybeSent.Store(true)
		}
		logAttempt(ctx, req, attempt, elapsed, "error", err.Error())
		return nil, err
	}
	t.client.clock.observe(start, start.Add(elapsed), resp.Header.Get("Date"))
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		retryAfter, ok := parseRetryAfter(resp.Header.Get("Retry-After"), thr.Now())
		if p, began := thr.Throttled(sentAt, retryAfter, ok); began {
			tflog.Warn(ctx, p.Describe(st.method, st.path), map[string]any{
				"wait_ms": durationMS(p.Wait), "requests_per_minute": math.Round(p.PerMinute),
			})
		}
	case resp.StatusCode < 500:
		thr.Answered(sentAt)
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	logAttempt(ctx, req, attempt, elapsed, "status", resp.StatusCode)
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
// unanswered before the client sends no more: a host that accepts and
// never answers would hold every request of the run for as long again.
const silentAfter = 2

// silentHost counts the attempts in a row that got no answer within the
// request timeout; any answer starts it again.
type silentHost struct{ unanswered atomic.Int32 }

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

// refuse returns the error of an attempt not to send, or nil.
func (s *silentHost) refuse(host string, timeout time.Duration) error {
	if n := s.unanswered.Load(); n >= silentAfter {
		return &SilentHostError{Host: host, Attempts: int(n), Timeout: timeout}
	}
	return nil
}

// ended counts an attempt's outcome: an answer, or a failure err.
func (s *silentHost) ended(err error) {
	switch {
	case err == nil:
		s.unanswered.Store(0)
	case isA[*AttemptTimeoutError](err):
		s.unanswered.Add(1)
	}
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

// logAttempt logs an attempt's one line (go-retryablehttp has no Logger:
// its lines repeated these).
func logAttempt(ctx context.Context, req *http.Request, attempt int32, elapsed time.Duration, outcome string, value any) {
	tflog.Debug(ctx, "API request", map[string]any{
		"method": req.Method, "path": req.URL.RequestURI(), "attempt": attempt,
		"duration_ms": durationMS(elapsed), outcome: value,
	})
}

func durationMS(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

// serviceClock is the offset of the service's clock from this machine's,
// from the Date header of its answers; nil before any.
type serviceClock struct {
	offset atomic.Pointer[time.Duration]
}

// observe takes the Date of an answer to a request sent at sent and
// answered at received: Date is truncated to the second and was read
// somewhere in between, so the middle of both ranges is the best guess.
func (s *serviceClock) observe(sent, received time.Time, date string) {
	d, err := http.ParseTime(date)
	if err != nil {
		return
	}
	offset := d.Add(500 * time.Millisecond).Sub(sent.Add(received.Sub(sent) / 2))
	s.offset.Store(&offset)
}

// ServiceTime converts a moment t of this machine's clock to the service's,
// within about a second; false before any answer carried a Date.
func (c *Client) ServiceTime(t time.Time) (time.Time, bool) {
	if offset := c.clock.offset.Load(); offset != nil {
		return t.Add(*offset), true
	}
	return t, false
}
