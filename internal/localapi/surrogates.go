package localapi

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf16"
)

// Python's json keeps a lone UTF-16 surrogate escaped in a string
// ("\ud800") as a character of its own, which the service's CharField then
// refuses; Go's decoder turns it into U+FFFD. loneSurrogate finds it in the
// raw body instead.

// loneSurrogate returns the first lone surrogate that the JSON body's
// string field name escapes, if any.
func (b *body) loneSurrogate(name string) (rune, bool) {
	if b.raw == nil || !bytes.Contains(b.raw, []byte(`\u`)) {
		return 0, false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b.raw, &fields) != nil {
		return 0, false
	}
	return loneSurrogateIn(fields[name])
}

// loneSurrogateIn returns the first lone surrogate a JSON string literal
// escapes: a high one not followed by an escaped low one, or a low one on
// its own.
func loneSurrogateIn(lit []byte) (rune, bool) {
	for i := 0; i+1 < len(lit); i++ {
		if lit[i] != '\\' {
			continue
		}
		r, ok := escapedUnit(lit, i)
		if !ok {
			i++ // another escape: skip its character
			continue
		}
		i += 5
		if !utf16.IsSurrogate(r) {
			continue
		}
		if r < 0xdc00 {
			if low, ok := escapedUnit(lit, i+1); ok && low >= 0xdc00 && low <= 0xdfff {
				i += 6
				continue
			}
		}
		return r, true
	}
	return 0, false
}

// escapedUnit reads the \uXXXX escape at lit[i], if there is one.
func escapedUnit(lit []byte, i int) (rune, bool) {
	if i+6 > len(lit) || lit[i] != '\\' || lit[i+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(lit[i+2:i+6]), 16, 16)
	if err != nil {
		return 0, false
	}
	return rune(n), true
}
