// The body of an error answer, whatever its shape, as text fit for an
// error message.

package client

import (
	"bytes"
	"encoding/json"
	"html"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

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
	b := bytes.TrimSpace(body)
	if len(b) == 0 {
		return e
	}
	switch b[0] {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) == nil {
			if !fromErrorObject(&e, m) {
				e.Detail = excerpt(python.Compact(b), hintLength)
			}
			return e
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
				e.Detail = excerpt(python.Compact(b), hintLength)
			}
			return e
		}
	}
	e.Detail = answerLine(string(b))
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
