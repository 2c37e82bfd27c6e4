// Package python holds facts about the Python the live service runs on,
// which the local API and the provider both need (DESIGN.md): text, truth,
// numbers, and JSON as its json module reads and writes it.
package python

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"
	"unicode/utf8"
)

// IsSpace reports whether Python's str.isspace() is true for r. Go's
// unicode.IsSpace leaves out U+001C to U+001F, which Python strips.
func IsSpace(r rune) bool {
	switch {
	case r <= 0x7f:
		return r >= '\t' && r <= '\r' || r >= 0x1c && r <= 0x20
	case r == 0x85, r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a,
		r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

// Strip is Python's str.strip(), which the service applies to names and
// descriptions before it validates and stores them.
func Strip(s string) string { return strings.TrimFunc(s, IsSpace) }

// Len is Python's len() of a str: code points, which the service's length
// limits count.
func Len(s string) int { return utf8.RuneCountInString(s) }

// Truthy is Python's truth test of a JSON value: null, false, "", 0, [] and
// {} are false. The service masks a setting only when its secret is true so.
func Truthy(raw json.RawMessage) bool {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return len(bytes.TrimSpace(raw)) > 0 // text that is not JSON
	}
	return TruthyValue(v)
}

// TruthyValue is Python's truth test of a decoded JSON value, numbers as
// json.Number (NaN and Infinity, which JSON has not, true).
func TruthyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		n, err := ParseNumber(string(x))
		return err != nil || !n.Equal(Number{Int: new(big.Int)})
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}
