package client

import (
	"bytes"
	"encoding/json"
	"html"
	"math"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits on how much of a body goes into an error message: an envelope's
// detail is the service's own sentence and is kept nearly whole; anything
// else (an HTML page from a proxy) is only a hint.
const (
	maxEnvelopeDetail = 1000
	maxTextDetail     = 200
)

// newAPIError builds the error for a non-2xx answer whose body was read.
func newAPIError(method, path string, resp *http.Response, body []byte, attempts int, key string) *APIError {
	e := &APIError{Method: method, Path: path, Status: resp.StatusCode, Attempts: attempts}
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		e.RetryAfter = int(math.Ceil(d.Seconds()))
	}
	if resp.StatusCode/100 == 3 {
		// Redirects are followed for GET only; a write that is redirected is
		// not resent, and the likely cause is the host setting.
		e.Detail = "the service redirected the request"
		if loc := resp.Header.Get("Location"); loc != "" {
			e.Detail += " to " + excerpt(loc, maxTextDetail)
		}
		e.Detail += "; set host to the address the service answers on (scheme and domain)"
	} else {
		decodeErrorBody(e, body)
	}
	if e.Detail == "" {
		e.Detail = http.StatusText(resp.StatusCode)
	}
	e.Type, e.Code = redact(e.Type, key), redact(e.Code, key)
	e.Detail, e.Attr = redact(e.Detail, key), redact(e.Attr, key)
	return e
}

// decodeErrorBody fills Type, Code, Detail and Attr from the service's
// envelope {type, code, detail, attr}, and copes with what else may come:
// other JSON error shapes, HTML, plain text.
func decodeErrorBody(e *APIError, body []byte) {
	b := bytes.TrimSpace(body)
	if len(b) == 0 {
		return
	}
	switch b[0] {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) == nil {
			if !fromErrorObject(e, m) {
				e.Detail = excerpt(compactJSON(b), maxTextDetail)
			}
			return
		}
	case '[', '"':
		if json.Valid(b) {
			var list []string
			var s string
			switch {
			case json.Unmarshal(b, &list) == nil && len(list) > 0:
				e.Detail = excerpt(strings.Join(list, "; "), maxEnvelopeDetail)
			case json.Unmarshal(b, &s) == nil:
				e.Detail = excerpt(s, maxEnvelopeDetail)
			default:
				e.Detail = excerpt(compactJSON(b), maxTextDetail)
			}
			return
		}
	}
	e.Detail = textExcerpt(string(b))
}

// fromErrorObject reads a JSON object error body; false when it has no
// recognisable message.
func fromErrorObject(e *APIError, m map[string]json.RawMessage) bool {
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
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
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
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return compactJSON(raw)
}

func compactJSON(raw []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

var (
	reHiddenHTML = regexp.MustCompile(`(?is)<(script|style|head)\b.*?</(script|style|head)\s*>`)
	reComment    = regexp.MustCompile(`(?s)<!--.*?-->`)
	reTag        = regexp.MustCompile(`(?s)<[^>]*>`)
)

// textExcerpt turns an HTML or text body into a short single line.
func textExcerpt(s string) string {
	if strings.Contains(s, "<") {
		s = reHiddenHTML.ReplaceAllString(s, " ")
		s = reComment.ReplaceAllString(s, " ")
		s = reTag.ReplaceAllString(s, " ")
		s = html.UnescapeString(s)
	}
	return excerpt(strings.Join(strings.Fields(s), " "), maxTextDetail)
}

// excerpt cuts s to at most n runes, marking a cut with an ellipsis.
func excerpt(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}
