package python

import (
	"math/big"
	"strings"
	"unicode"
)

// Int is Python's int() of a str in base 10: surrounding whitespace, an
// optional sign, any Unicode decimal digits ("١٢"), single underscores
// between digits. false when int() would raise.
func Int(s string) (*big.Int, bool) {
	s = Strip(s)
	var b strings.Builder
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			b.WriteByte('-')
		}
		s = s[1:]
	}
	if s == "" {
		return nil, false
	}
	underscore := true // no underscore first
	for _, r := range s {
		switch d, ok := decimal(r); {
		case ok:
			b.WriteByte("0123456789"[d])
			underscore = false
		case r == '_' && !underscore:
			underscore = true
		default:
			return nil, false
		}
	}
	if underscore {
		return nil, false // an underscore last
	}
	return new(big.Int).SetString(b.String(), 10)
}

// decimal is the value of a Unicode decimal digit: digits come in runs of
// ten, 0 to 9, so its value is its distance from the start of its run.
func decimal(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	start := r
	for unicode.Is(unicode.Nd, start-1) {
		start--
	}
	return int(r-start) % 10, true
}

// IntegerField reads text as Django REST framework's IntegerField does:
// int(re.sub(r'\.0*\s*$', "", text)), Python's \s being IsSpace. The caller
// checks its max_string_length of 1000.
func IntegerField(text string) (*big.Int, bool) {
	trimmed := strings.TrimRight(strings.TrimRightFunc(text, IsSpace), "0")
	if strings.HasSuffix(trimmed, ".") {
		text = trimmed[:len(trimmed)-1]
	}
	return Int(text)
}
