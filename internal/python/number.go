package python

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Number is a JSON number as Python's json module reads it, which is how the
// service reads the numbers of plugin settings and filters: a literal
// without a fraction or an exponent is an int, exact at any size; any other
// is a float, the nearest IEEE double (±Inf past its range, 0 below it).
type Number struct {
	// Int is the value of an int; nil for a float.
	Int *big.Int
	// Float is the value of a float.
	Float float64
}

// ErrNotNumber is the error of ParseNumber for text that is not a JSON
// number.
var ErrNotNumber = errors.New("not a JSON number")

// ParseNumber reads a JSON number literal as json.loads does.
func ParseNumber(lit string) (Number, error) {
	if !isJSONNumber(lit) {
		return Number{}, ErrNotNumber
	}
	if !strings.ContainsAny(lit, ".eE") {
		n, _ := new(big.Int).SetString(lit, 10)
		return Number{Int: n}, nil
	}
	// ParseFloat rounds correctly, as Python's float() does; past the
	// double's range it answers ±Inf with ErrRange, which is Python's inf.
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Number{}, ErrNotNumber
	}
	return Number{Float: f}, nil
}

// isJSONNumber reports whether s is a number in JSON's grammar.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// IsInt reports whether n is an int.
func (n Number) IsInt() bool { return n.Int != nil }

// IsFinite reports whether n can be stored: an int, or a float within the
// double's range. json.dumps writes an infinite float as Infinity, which is
// not JSON, so the service cannot store it.
func (n Number) IsFinite() bool { return n.IsInt() || !math.IsInf(n.Float, 0) }

// String writes n as json.dumps does: an int in digits, a float as repr()
// writes it (Repr), an infinite one as Infinity or -Infinity.
func (n Number) String() string {
	switch {
	case n.IsInt():
		return n.Int.String()
	case math.IsInf(n.Float, 1):
		return "Infinity"
	case math.IsInf(n.Float, -1):
		return "-Infinity"
	}
	return Repr(n.Float)
}

// Equal is Python's == of two numbers: exact, also between an int and a
// float (1 == 1.0, and 2**53 + 1 != 2.0**53).
func (n Number) Equal(m Number) bool {
	switch {
	case n.IsInt() && m.IsInt():
		return n.Int.Cmp(m.Int) == 0
	case !n.IsInt() && !m.IsInt():
		return n.Float == m.Float
	case n.IsInt():
		return intEqualsFloat(n.Int, m.Float)
	default:
		return intEqualsFloat(m.Int, n.Float)
	}
}

func intEqualsFloat(i *big.Int, f float64) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) {
		return false
	}
	fi, _ := big.NewFloat(f).Int(nil)
	return fi.Cmp(i) == 0
}

// Repr is Python's repr() of a float, which json.dumps writes: the shortest
// digits that read back as f, in positional notation with at least one
// digit after the point while the point falls within 16 digits of the
// first (0.0001, 1000000000000000.0), else in scientific notation with a
// signed exponent of at least two digits (1e-05, 1e+16, 1.5e+300).
func Repr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	sci := strconv.FormatFloat(f, 'e', -1, 64)
	mantissa, exp, _ := strings.Cut(sci, "e")
	x, _ := strconv.Atoi(exp)
	if x < -4 || x >= 16 {
		sign := "+"
		if x < 0 {
			sign, x = "-", -x
		}
		e := strconv.Itoa(x)
		if len(e) < 2 {
			e = "0" + e
		}
		return mantissa + "e" + sign + e
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// Str is Python's str() of a JSON number, the text the service's string
// fields make of one (a filter entry's id): an int's digits, a float's
// repr().
func (n Number) Str() string {
	if n.IsInt() {
		return n.Int.String()
	}
	return Repr(n.Float)
}
