package client

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

// APIError is an error answer of the service. Type, Code, Detail and Attr
// come from the service's error envelope when the body is one.
type APIError struct {
	Method string
	// Path is the request's path (with its query), without the host.
	Path   string
	Status int
	Type   string
	Code   string
	// Detail is the envelope's detail; for a body that is not an envelope
	// (an HTML page from a proxy, plain text) a short excerpt of its text;
	// for an empty body the status text.
	Detail string
	// Attr names the request field the error is about, nested names joined
	// with "__" (e.g. filters__events__0__type); empty when none.
	Attr string
	// RetryAfter is the server's Retry-After in seconds, if any.
	RetryAfter int
	// Attempts is how many HTTP attempts were made, retries included.
	Attempts int
}

// Error says method, path, status, the service's detail and attribute, and
// how many attempts were made when more than one.
func (e *APIError) Error() string {
	msg := fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	if e.Detail != "" && e.Detail != http.StatusText(e.Status) {
		msg += ": " + e.Detail
	}
	if e.Attr != "" {
		msg += " (attribute " + e.Attr + ")"
	}
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" (gave up after %d attempts)", e.Attempts)
	}
	return msg
}

// TransportError is a request that ended without an HTTP answer: the
// connection failed or broke, an attempt timed out, or ctx was cancelled.
// errors.Is(err, context.Canceled) and the like see through it.
type TransportError struct {
	Method   string
	Path     string
	Attempts int
	// MaybeSent is false only when the service provably never received the
	// request (every attempt failed before a connection was made). When it
	// is true a POST may have been applied although no answer came back: it
	// was not retried, so that a record is never created twice.
	MaybeSent bool
	// Hint says, for a failure that waiting cannot mend (a host DNS does
	// not know, a refused connection, a TLS certificate or handshake this
	// client cannot accept), what it means, naming the host, and what to
	// check; empty for other failures.
	Hint string
	Err  error
}

// Error says method, path and cause, what to check when Hint knows, and
// whether a POST may have arrived.
func (e *TransportError) Error() string {
	msg := fmt.Sprintf("%s %s: %v", e.Method, e.Path, e.Err)
	if e.Hint != "" {
		msg = fmt.Sprintf("%s %s: %s (%v)", e.Method, e.Path, e.Hint, e.Err)
	}
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" (gave up after %d attempts)", e.Attempts)
	}
	if e.MaybeSent && e.Method == http.MethodPost {
		msg += " (the request may have reached the service; it was not retried so that it is never applied twice)"
	}
	return msg
}

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error { return e.Err }

// ThrottledError is a request the client stopped sending because the
// service throttles the API key (429) until after the caller's deadline: it
// fails at once instead of waiting in vain. Err is the 429 answer when this
// request got one; nil when it was held back by a pause another request's
// 429 began. errors.As finds the *APIError through it, and IsThrottled is
// true either way.
type ThrottledError struct {
	Method string
	Path   string
	// Until is when the service accepts requests of the key again, Wait how
	// long that was when the client gave up, Left how much time the
	// deadline left then.
	Until time.Time
	Wait  time.Duration
	Left  time.Duration
	// Attempts is how many HTTP attempts were made.
	Attempts int
	// MaybeSent is true when an earlier attempt may have reached the
	// service (a reset before the 429, for a request safe to repeat).
	MaybeSent bool
	Err       *APIError
}

// Error names the request, the wait and when it ends, and the time left.
func (e *ThrottledError) Error() string {
	what := "it was not sent"
	if e.Err != nil {
		what = "it was not sent again"
	}
	return fmt.Sprintf("%s %s: the service throttles this API key (429 Too Many Requests) and accepts requests again in %s, at %s, "+
		"after this operation's time limit (%s left): %s",
		e.Method, e.Path, throttle.RoundWait(e.Wait), e.Until.UTC().Format("2006-01-02 15:04:05 UTC"), throttle.RoundWait(max(0, e.Left)), what)
}

// Unwrap returns the 429 answer, if this request got one.
func (e *ThrottledError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}

// AnswerTooLargeError is an answer larger than the client reads of one
// (Limit bytes). It is not retried: the same request brings the same answer.
type AnswerTooLargeError struct {
	Method string
	Path   string
	Limit  int64
}

// Error names the request and the limit.
func (e *AnswerTooLargeError) Error() string {
	return fmt.Sprintf("%s %s: the answer is larger than %d MiB, the most the provider reads of one answer (not retried: the same request brings the same answer)",
		e.Method, e.Path, e.Limit>>20)
}

// ConfigError is an invalid Config given to New. Field is the provider
// setting it is about ("host" or "api_key").
type ConfigError struct {
	// Field is "host" or "api_key".
	Field string
	// Problem says what is wrong and how to fix it.
	Problem string
}

// Error reads "invalid <field>: <problem>".
func (e *ConfigError) Error() string { return "invalid " + e.Field + ": " + e.Problem }

// StatusOf returns the HTTP status of an *APIError in err's chain, or 0.
func StatusOf(err error) int {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Status
	}
	return 0
}

// IsNotFound reports whether err is a 404 answer.
func IsNotFound(err error) bool { return StatusOf(err) == http.StatusNotFound }

// IsForbidden reports whether err is a 403 answer.
func IsForbidden(err error) bool { return StatusOf(err) == http.StatusForbidden }

// IsKeyRefused reports whether err is the service refusing the key itself
// for one of its custom actions (rearrange, job, frontend): 403 "This action
// does not support Personal API Key access", which every key with scopes
// gets. A 403 for the project or a missing scope is another matter.
func IsKeyRefused(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusForbidden &&
		strings.Contains(strings.ToLower(apiErr.Detail), "personal api key access")
}

// IsProjectScopedKey reports whether err is the service refusing a key
// limited to particular projects (PostHog's scoped_teams) on a route that
// is not a project's, such as the organization's plugin listings: 403 "API
// keys with scoped projects are only supported on project-based
// endpoints." A key of the same scopes that is not limited to projects may
// call them.
func IsProjectScopedKey(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusForbidden &&
		strings.Contains(strings.ToLower(apiErr.Detail), "scoped projects")
}

// IsOrganizationNotFound reports whether err is the service's 404 for an
// organization it does not know, or an id that is not one.
func IsOrganizationNotFound(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound &&
		strings.Contains(strings.ToLower(apiErr.Detail), "organization not found")
}

// IsThrottled reports whether err is a 429 answer or a *ThrottledError.
func IsThrottled(err error) bool {
	var thrErr *ThrottledError
	return StatusOf(err) == http.StatusTooManyRequests || errors.As(err, &thrErr)
}

// MayHaveApplied reports whether a failed write may nevertheless have taken
// effect on the service: a transport failure after the request may have
// been sent, or a 5xx answer (a proxy's 502/504 can come after the service
// did the work). A caller that must not duplicate a create can then look
// for the record before trying again. 4xx answers (429 included) and
// requests that provably never left are false.
func MayHaveApplied(err error) bool {
	var tErr *TransportError
	if errors.As(err, &tErr) {
		return tErr.MaybeSent
	}
	var thrErr *ThrottledError
	if errors.As(err, &thrErr) {
		return thrErr.MaybeSent
	}
	return StatusOf(err) >= 500
}

// redact removes the API key from text bound for an error message or a log.
func redact(s, key string) string {
	if key == "" || !strings.Contains(s, key) {
		return s
	}
	return strings.ReplaceAll(s, key, "[REDACTED]")
}
