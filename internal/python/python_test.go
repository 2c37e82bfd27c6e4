package python_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// pythonSpaces are the code points for which Python 3.11's str.isspace()
// is true (Unicode 14), listed by
// [hex(c) for c in range(0x110000) if chr(c).isspace()].
var pythonSpaces = []rune{
	0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
	0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
}

func TestIsSpaceIsPythons(t *testing.T) {
	want := map[rune]bool{}
	for _, r := range pythonSpaces {
		want[r] = true
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got := python.IsSpace(r); got != want[r] {
			t.Errorf("IsSpace(%U) = %t, want %t", r, got, want[r])
		}
	}
	// The difference from Go that made this package needed.
	if unicode.IsSpace(0x1c) || !python.IsSpace(0x1c) {
		t.Error("U+001C: Python strips it, Go's unicode.IsSpace does not")
	}
}

func TestStrip(t *testing.T) {
	for in, want := range map[string]string{
		"GeoIP\n":                           "GeoIP",
		"\t\v\f\r\n GeoIP \x1c\x1d\x1e\x1f": "GeoIP",
		"\u00a0\u1680\u2000GeoIP\u200a\u2028\u2029\u202f\u205f\u3000\u0085": "GeoIP",
		"  ":             "",
		"":               "",
		"a b\n c":        "a b\n c",
		"\u200bGeoIP":    "\u200bGeoIP", // zero width space: not whitespace to Python
		"\x00 GeoIP":     "\x00 GeoIP",  // NUL is not whitespace either
		"\ufeffGeoIP\n ": "\ufeffGeoIP",
	} {
		if got := python.Strip(in); got != want {
			t.Errorf("Strip(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLenCountsCharacters(t *testing.T) {
	if got := python.Len(strings.Repeat("é", 400)); got != 400 {
		t.Errorf("Len(400 é) = %d, want 400", got)
	}
	if got := python.Len("😀"); got != 1 {
		t.Errorf("Len(😀) = %d, want 1 (Python counts code points)", got)
	}
}

func TestTruthy(t *testing.T) {
	for in, want := range map[string]bool{
		`null`: false, `false`: false, `""`: false, `0`: false, `0.0`: false, `-0`: false, `[]`: false, `{}`: false,
		`[ ]`: false, ` { } `: false,
		`true`: true, `"x"`: true, `" "`: true, `1`: true, `-0.5`: true, `1e400`: true, `[0]`: true, `{"a":1}`: true,
	} {
		if got := python.Truthy(json.RawMessage(in)); got != want {
			t.Errorf("Truthy(%s) = %v, want %v", in, got, want)
		}
	}
}

// TruthyValue meets numbers as the local API's decoder gives them, Python's
// NaN and Infinity included, which JSON has no literal for.
func TestTruthyValue(t *testing.T) {
	for in, want := range map[json.Number]bool{
		"0": false, "-0": false, "0.0": false, "0e5": false, "0.000000000000000000000000000001": true,
		"12345678901234567890123": true, "1e400": true, "NaN": true, "Infinity": true, "-Infinity": true,
	} {
		if got := python.TruthyValue(in); got != want {
			t.Errorf("TruthyValue(%s) = %v, want %v", in, got, want)
		}
	}
	for _, v := range []any{[]any{}, map[string]any{}, "", nil, false} {
		if python.TruthyValue(v) {
			t.Errorf("TruthyValue(%#v) = true, want false", v)
		}
	}
}
