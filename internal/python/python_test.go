package python_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
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

// What Python 3.11 answers for json.dumps(json.loads(literal)), each
// checked with python3 when written.
var pythonNumbers = map[string]string{
	"0.1":                    "0.1",
	"1e300":                  "1e+300",
	"1e16":                   "1e+16",
	"1e15":                   "1000000000000000.0",
	"123456789.0":            "123456789.0",
	"1e-5":                   "1e-05",
	"0.0001":                 "0.0001",
	"-0.0":                   "-0.0",
	"1.5e-7":                 "1.5e-07",
	"5e-324":                 "5e-324",
	"1.7976931348623157e308": "1.7976931348623157e+308",
	"12345678901234567.0":    "1.2345678901234568e+16",
	"9007199254740993.0":     "9007199254740992.0",
	"0.3333333333333333333333333333333333333333": "0.3333333333333333",
	"1e400":                          "Infinity",
	"-1e400":                         "-Infinity",
	"1E2":                            "100.0",
	"2.50":                           "2.5",
	"-0":                             "0",
	"100":                            "100",
	"1e-400":                         "0.0",
	"0.000123":                       "0.000123",
	"123e-20":                        "1.23e-18",
	"123456789012345678901234567890": "123456789012345678901234567890",
}

func TestParseNumberWritesWhatPythonWrites(t *testing.T) {
	for lit, want := range pythonNumbers {
		n, err := python.ParseNumber(lit)
		if err != nil {
			t.Errorf("ParseNumber(%q): %v", lit, err)
			continue
		}
		if got := n.String(); got != want {
			t.Errorf("ParseNumber(%q).String() = %q, want %q", lit, got, want)
		}
	}
}

func TestParseNumberRefusesWhatJSONRefuses(t *testing.T) {
	for _, lit := range []string{"", "-", "+1", ".5", "1.", "01", "1e", "1e+", "0x10", "1_000", "NaN", "Infinity", " 1", "1 "} {
		if _, err := python.ParseNumber(lit); err == nil {
			t.Errorf("ParseNumber(%q) succeeded, want an error", lit)
		}
	}
}

// Repr must read back as the same double and be no longer than Go's
// shortest form: checked over random doubles of every magnitude.
func TestReprRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		s := python.Repr(f)
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || back != f {
			t.Fatalf("Repr(%v) = %q reads back as %v (%v)", f, s, back, err)
		}
	}
}

func TestNumberEqualIsPythons(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"1", "1.0", true},
		{"1", "1e0", true},
		{"100", "1E2", true},
		{"0.1", "0.10000000000000000001", true}, // both the double nearest 0.1
		{"0.3333333333333333", "0.3333333333333333333333333333333333333333", true},
		{"9007199254740993", "9007199254740993.0", false}, // the float is 2**53
		{"9007199254740992", "9007199254740993.0", true},
		{"123456789012345678901234567890", "123456789012345678901234567891", false},
		{"1e400", "1e401", true}, // both inf
		{"0", "-0.0", true},
		{"1", "2", false},
		{"1.5", "1", false},
	} {
		a, _ := python.ParseNumber(c.a)
		b, _ := python.ParseNumber(c.b)
		if got := a.Equal(b); got != c.want {
			t.Errorf("%s == %s: %t, want %t", c.a, c.b, got, c.want)
		}
		if got := b.Equal(a); got != c.want {
			t.Errorf("%s == %s: %t, want %t", c.b, c.a, got, c.want)
		}
	}
}

func TestIsFinite(t *testing.T) {
	for lit, want := range map[string]bool{"1e308": true, "1e309": false, "-1e309": false, "10000": true} {
		n, _ := python.ParseNumber(lit)
		if got := n.IsFinite(); got != want {
			t.Errorf("IsFinite(%s) = %t, want %t", lit, got, want)
		}
	}
	big := "1"
	for range 400 {
		big += "0"
	}
	if n, _ := python.ParseNumber(big); !n.IsFinite() || n.String() != big {
		t.Errorf("an int of 401 digits is stored exactly: %s", n.String())
	}
}

// What Python 3.11's int() answers, each checked with python3 when written.
func TestIntIsPythons(t *testing.T) {
	for in, want := range map[string]int64{
		"5": 5, " 7 ": 7, "+3": 3, "-4": -4, "1_000": 1000, "007": 7, "0_0": 0, "00": 0,
		"١٢": 12, "１２": 12, "\u20035\u3000": 5, "𝟗": 9,
	} {
		n, ok := python.Int(in)
		if !ok || n.Int64() != want {
			t.Errorf("Int(%q) = %v, %t; want %d", in, n, ok, want)
		}
	}
	for _, in := range []string{"", " ", "x", "1.5", "5.0", "_1", "1__0", "1_", "+_1", "--1", "0x10", "1e3", "+", "½"} {
		if n, ok := python.Int(in); ok {
			t.Errorf("Int(%q) = %v, want a refusal", in, n)
		}
	}
}

// What DRF's IntegerField makes of text: int(re.sub(r'\.0*\s*$', "",
// text)), with Python's \s (\v and Unicode spaces too) and int().
func TestIntegerFieldDropsZeroDecimals(t *testing.T) {
	ok := map[string]int64{"5": 5, " 7 ": 7, "+3": 3, "-4": -4, "1_000": 1000, "12.0": 12, "12.": 12, "007": 7,
		"12.000 ": 12, " 2.0": 2, "5 .0": 5, "5.0\v": 5, "5.0\u00a0": 5, "\u0663": 3, "１２": 12, "-0.0": 0, " 1.\n": 1}
	for in, want := range ok {
		n, good := python.IntegerField(in)
		if !good || n.Int64() != want {
			t.Errorf("IntegerField(%q) = %v, %t; want %d", in, n, good, want)
		}
	}
	for _, in := range []string{"", "x", "1.5", "_1", "1__0", "1_", "--1", "0x10", "1e3", "1e+20", "5.0 0", "5.0.0",
		".", "inf", "nan", "True", "1.0x", "2. 0", "2.0x"} {
		if n, good := python.IntegerField(in); good {
			t.Errorf("IntegerField(%q) = %v, want a refusal", in, n)
		}
	}
}
