package client

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"maps"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// APIError is an error answer of the service; Type, Code, Detail and Attr
// come from its error envelope when the body is one.
type APIError struct {
	Method     string
	Path       string // with its query, without the host
	Status     int
	Type, Code string
	Detail     string // the envelope's, else an excerpt of the body, else the status text
	Attr       string // the request field at fault, nested names joined with "__"
	RetryAfter int    // seconds, 0 when none
	Attempts   int
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	if e.Detail != "" && e.Detail != http.StatusText(e.Status) {
		msg += ": " + e.Detail
	}
	if e.Attr != "" {
		msg += " (attribute " + e.Attr + ")"
	}
	return msg + gaveUp(e.Attempts)
}

// gaveUp is the note on the attempts an error's request took, when several.
func gaveUp(attempts int) string {
	if attempts > 1 {
		return fmt.Sprintf(" (gave up after %d attempts)", attempts)
	}
	return ""
}

// newAPIError builds the error for a non-2xx answer whose body was read.
func newAPIError(method, path string, resp *http.Response, body []byte, attempts int, key string) *APIError {
	e := &APIError{Method: method, Path: path, Status: resp.StatusCode, Attempts: attempts}
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		e.RetryAfter = int(math.Ceil(d.Seconds()))
	}
	if resp.StatusCode/100 == 3 { // only a GET follows redirects
		e.Detail = "the service redirected the request"
		if loc := resp.Header.Get("Location"); loc != "" {
			e.Detail += " to " + excerpt(loc, hintLength)
		}
		e.Detail += "; set host to the address the service answers on (scheme and domain)"
	} else {
		f := decodeAnswer(body)
		e.Type, e.Code, e.Detail, e.Attr = f.Type, f.Code, f.Detail, f.Attr
	}
	e.Detail = cmp.Or(e.Detail, http.StatusText(resp.StatusCode))
	e.Type, e.Code = redact(e.Type, key), redact(e.Code, key)
	e.Detail, e.Attr = redact(e.Detail, key), redact(e.Attr, key)
	return e
}

// An envelope's detail is the service's own sentence, kept nearly whole;
// anything else (a proxy's HTML page) is only a hint, of hintLength runes.
const (
	maxEnvelopeDetail = 1000
	hintLength        = 200
)

// answerFields is the service's envelope {type, code, detail, attr}, or as much
// of it as another shape tells.
type answerFields struct {
	Type, Code, Detail, Attr string
}

// decodeAnswer reads an error answer's body: the service's envelope, other JSON
// error shapes (a message, DRF's field errors, a list of strings), or HTML
// and plain text, of which Detail keeps a short single-line excerpt.
func decodeAnswer(body []byte) answerFields {
	var e answerFields
	var m map[string]json.RawMessage
	var list []string
	switch b := bytes.TrimSpace(body); {
	case len(b) == 0:
	case json.Unmarshal(b, &m) == nil:
		if !fromErrorObject(&e, m) {
			e.Detail = excerpt(python.Compact(b), hintLength)
		}
	case json.Unmarshal(b, &list) == nil && len(list) > 0:
		e.Detail = excerpt(strings.Join(list, "; "), maxEnvelopeDetail)
	case json.Unmarshal(b, &e.Detail) == nil: // a JSON string
		e.Detail = excerpt(e.Detail, maxEnvelopeDetail)
	case json.Valid(b):
		e.Detail = excerpt(python.Compact(b), hintLength)
	default:
		e.Detail = answerLine(string(b))
	}
	return e
}

// fromErrorObject reads a JSON object error body; false when it has no
// recognisable message.
func fromErrorObject(e *answerFields, m map[string]json.RawMessage) bool {
	e.Type, e.Code, e.Attr = jsonText(m["type"]), jsonText(m["code"]), jsonText(m["attr"])
	e.Detail = excerpt(jsonText(m["detail"]), maxEnvelopeDetail)
	if e.Type != "" || e.Code != "" || e.Detail != "" {
		return true
	}
	for _, k := range []string{"message", "error", "error_description"} {
		if s := jsonText(m[k]); s != "" {
			e.Detail = excerpt(s, maxEnvelopeDetail)
			return true
		}
	}
	// Plain DRF field errors: {"name": ["Ensure this field ..."]}.
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var msgs []string
		if json.Unmarshal(m[k], &msgs) == nil && len(msgs) > 0 {
			if k != "non_field_errors" {
				e.Attr = k
			}
			e.Detail = excerpt(msgs[0], maxEnvelopeDetail)
			return true
		}
	}
	return false
}

// jsonText renders a JSON value as text: a string as itself, null or absent
// as "", anything else as compact JSON.
func jsonText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if python.IsNull(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return python.Compact(raw)
}

var (
	reHiddenHTML = regexp.MustCompile(`(?is)<(script|style|head)\b.*?</(script|style|head)\s*>`)
	reComment    = regexp.MustCompile(`(?s)<!--.*?-->`)
	reTag        = regexp.MustCompile(`(?s)<[^>]*>`)
)

// answerLine turns an HTML or text body into a short single line.
func answerLine(s string) string {
	if strings.Contains(s, "<") {
		s = reHiddenHTML.ReplaceAllString(s, " ")
		s = reComment.ReplaceAllString(s, " ")
		s = reTag.ReplaceAllString(s, " ")
		s = html.UnescapeString(s)
	}
	return excerpt(strings.Join(strings.Fields(s), " "), hintLength)
}

// excerpt cuts s to at most n runes, marking a cut with an ellipsis.
func excerpt(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}

// TransportError is a request that ended without an HTTP answer; errors.Is
// sees its cause (context.Canceled and the like).
type TransportError struct {
	Method, Path string
	Attempts     int
	MaybeSent    bool   // false only when the service provably never received the request
	Hint         string // what a failure that waiting cannot mend means, and what to check
	Err          error
}

func (e *TransportError) Error() string {
	msg := fmt.Sprintf("%s %s: %v", e.Method, e.Path, e.Err)
	if e.Hint != "" {
		msg = fmt.Sprintf("%s %s: %s (%v)", e.Method, e.Path, e.Hint, e.Err)
	}
	msg += gaveUp(e.Attempts)
	if e.MaybeSent && e.Method == http.MethodPost {
		msg += " (the request may have reached the service; it was not retried so that it is never applied twice)"
	}
	return msg
}

func (e *TransportError) Unwrap() error { return e.Err }

// ThrottledError is a request not sent (again) because the service throttles
// the key (429) until past the deadline; Err is its own 429, if it got one.
type ThrottledError struct {
	Method, Path string
	// Until is when the service accepts requests again, Wait how long that
	// was when the client gave up, Left the time the deadline left then.
	Until      time.Time
	Wait, Left time.Duration
	Attempts   int
	MaybeSent  bool // an earlier attempt may have reached the service
	Err        *APIError
	Limit      error // what set the deadline (WithTimeLimit), if it said
}

func (e *ThrottledError) Error() string {
	what := "it was not sent"
	if e.Err != nil {
		what = "it was not sent again"
	}
	return fmt.Sprintf("%s %s: the service throttles this API key (429 Too Many Requests) and accepts requests again in %s, at %s, "+
		"after this operation's time limit (%s left): %s",
		e.Method, e.Path, throttle.RoundWait(e.Wait), e.Until.UTC().Format("2006-01-02 15:04:05 UTC"), throttle.RoundWait(max(0, e.Left)), what)
}

// Unwrap returns the 429 answer, if this request got one, and the limit.
func (e *ThrottledError) Unwrap() []error {
	var errs []error
	if e.Err != nil { // not a typed nil, which errors.As would take for an *APIError
		errs = append(errs, e.Err)
	}
	if e.Limit != nil {
		errs = append(errs, e.Limit)
	}
	return errs
}

// AnswerTooLargeError is an answer past the Limit bytes the client reads of one.
type AnswerTooLargeError struct {
	Method, Path string
	Limit        int64
}

func (e *AnswerTooLargeError) Error() string {
	return fmt.Sprintf("%s %s: the answer is larger than %d MiB, the most the provider reads of one answer (not retried: the same request brings the same answer)",
		e.Method, e.Path, e.Limit>>20)
}

// ConfigError is an invalid Config given to New: Field is the setting at
// fault ("host" or "api_key"), Problem what is wrong and how to fix it.
type ConfigError struct {
	Field, Problem string
}

func (e *ConfigError) Error() string { return "invalid " + e.Field + ": " + e.Problem }

// UnsavedError is a create answered with success but without an id (at
// generation 2); not MayHaveApplied, so that no retry and no search follow.
type UnsavedError struct {
	Method, Path string
	Status       int
	Record       *Record // as the service answered it
}

func (e *UnsavedError) Error() string {
	return fmt.Sprintf("%s %s: the service answered %d %s with a config that has no id: it saved no config",
		e.Method, e.Path, e.Status, http.StatusText(e.Status))
}

// ServiceGoneError is a 404 of a route of a collection or plugin listing
// whose own route answers 404 too (generation 3); not IsNotFound.
type ServiceGoneError struct {
	Method, Path   string
	Collection     Collection
	CollectionPath string
	Err            *APIError // the 404
}

func (e *ServiceGoneError) Error() string {
	also := ""
	if !strings.HasPrefix(e.Path, e.CollectionPath+"?") && e.Path != e.CollectionPath {
		also = ", and so does " + e.CollectionPath
	}
	return fmt.Sprintf("%s %s answered 404 Not Found%s: the service no longer offers the %s API",
		e.Method, e.Path, also, e.Collection)
}

// MissingActionError is a 404 of a record's action although the record
// exists (generation 2 has no job); not IsNotFound.
type MissingActionError struct {
	Action, Method, Path string
	ID                   int64
	Existing             int64     // the record found to exist: ID, or one an earlier call found
	Err                  *APIError // the 404
}

func (e *MissingActionError) Error() string {
	if e.Existing != e.ID {
		return fmt.Sprintf("%s %s answered 404 Not Found, as the %s action of config %d did although that config exists: the service has no %s action",
			e.Method, e.Path, e.Action, e.Existing, e.Action)
	}
	return fmt.Sprintf("%s %s answered 404 Not Found although config %d exists: the service has no %s action",
		e.Method, e.Path, e.ID, e.Action)
}

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

// IsKeyRefused reports whether err is the 403 every key with scopes gets
// for the custom actions (rearrange, job, frontend).
func IsKeyRefused(err error) bool {
	return answered(err, http.StatusForbidden, "personal api key access")
}

// IsProjectScopedKey reports whether err is the 403 a key limited to
// projects gets on a route that is not a project's (plugin listings).
func IsProjectScopedKey(err error) bool {
	return answered(err, http.StatusForbidden, "scoped projects")
}

// IsProjectNotFound reports whether err is the service's 404 for a project
// it does not know.
func IsProjectNotFound(err error) bool {
	return answered(err, http.StatusNotFound, "project not found")
}

// IsOrganizationNotFound reports whether err is the service's 404 for an
// organization it does not know.
func IsOrganizationNotFound(err error) bool {
	return answered(err, http.StatusNotFound, "organization not found")
}

// IsCreationDisabled reports whether err is a generation 2 service's 400
// for a create it cannot turn into a hog function; nothing was made then.
func IsCreationDisabled(err error) bool {
	return answered(err, http.StatusBadRequest, "Plugin creation is no longer possible")
}

// answered reports whether err is an answer of status whose detail says detail, in any case.
func answered(err error, status int, detail string) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == status &&
		strings.Contains(strings.ToLower(apiErr.Detail), strings.ToLower(detail))
}

// IsUnsaved reports whether err is an *UnsavedError.
func IsUnsaved(err error) bool { return isA[*UnsavedError](err) }

// IsServiceGone reports whether err is a *ServiceGoneError.
func IsServiceGone(err error) bool { return isA[*ServiceGoneError](err) }

// IsMissingAction reports whether err is a *MissingActionError.
func IsMissingAction(err error) bool { return isA[*MissingActionError](err) }

func isA[T error](err error) bool {
	var t T
	return errors.As(err, &t)
}

// MayHaveApplied reports whether a failed write may have taken effect: a
// transport failure after it may have left, or a 5xx (a proxy's 502 too).
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

// notFound404 returns the 404 in err that may mean more than a missing
// record: not the service's unknown project.
func notFound404(err error) *APIError {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusNotFound || IsProjectNotFound(err) {
		return nil
	}
	return apiErr
}

// redact removes the API key from text bound for an error message or a log.
func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[REDACTED]")
}
