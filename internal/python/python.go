// Package python holds facts about the Python the live service runs on,
// which both the local API (to behave as the service) and the provider (to
// plan what the service will store) need: what str.strip() removes, what
// len() counts, which JSON values are true, how json.loads reads numbers
// and json.dumps writes them, what int() and Django REST framework's
// IntegerField make of text. It knows neither HTTP nor Terraform.
package python

import (
	"strings"
	"unicode/utf8"
)

// IsSpace reports whether Python's str.isspace() is true for r: the
// characters str.strip() removes. Go's unicode.IsSpace differs: it leaves
// out U+001C to U+001F (Python counts the information separators as
// whitespace, being bidirectional class B or S).
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

// Strip is Python's str.strip() without arguments: s without leading and
// trailing whitespace (IsSpace). The service trims names and descriptions
// this way before it validates and stores them (Django REST framework's
// CharField, trim_whitespace).
func Strip(s string) string { return strings.TrimFunc(s, IsSpace) }

// Len is Python's len() of the str s: its characters (code points), not
// its bytes. The service's length limits count these.
func Len(s string) int { return utf8.RuneCountInString(s) }
