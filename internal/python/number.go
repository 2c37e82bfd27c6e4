package python

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// Number is a JSON number as the service's json.loads reads it: a literal
// without fraction or exponent an exact int, any other the nearest double.
type Number struct {
	Int   *big.Int // nil for a float
	Float float64
}

// ErrNotNumber is ParseNumber's error for text that is not a JSON number.
var ErrNotNumber = errors.New("not a JSON number")

// ParseNumber reads a JSON number literal as json.loads does.
func ParseNumber(lit string) (Number, error) {
	// Valid JSON that starts with a sign or digit and ends with a digit is a number.
	if lit == "" || !strings.ContainsRune("-0123456789", rune(lit[0])) ||
		lit[len(lit)-1] < '0' || lit[len(lit)-1] > '9' || !json.Valid([]byte(lit)) {
		return Number{}, ErrNotNumber
	}
	if !strings.ContainsAny(lit, ".eE") {
		n, _ := new(big.Int).SetString(lit, 10)
		return Number{Int: n}, nil
	}
	// ParseFloat rounds as Python's float() does; past the range it answers
	// ±Inf with ErrRange, Python's inf.
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Number{}, ErrNotNumber
	}
	return Number{Float: f}, nil
}

// IsInt reports whether n is an int.
func (n Number) IsInt() bool { return n.Int != nil }

// IsFinite reports whether the service can store n: json.dumps writes an
// infinite float as Infinity, which is not JSON.
func (n Number) IsFinite() bool { return n.IsInt() || !math.IsInf(n.Float, 0) }

// String writes n as json.dumps does: as str(), an infinite float as Infinity.
func (n Number) String() string {
	if !n.IsFinite() {
		return strings.Replace(Repr(n.Float), "inf", "Infinity", 1)
	}
	return n.Str()
}

// Str is Python's str() of n, the text the service's string fields make of
// a number (a filter entry's id).
func (n Number) Str() string {
	if n.IsInt() {
		return n.Int.String()
	}
	return Repr(n.Float)
}

// Equal is Python's ==: exact, also between an int and a float (2**53 + 1
// != 2.0**53).
func (n Number) Equal(m Number) bool {
	switch {
	case n.IsInt() && m.IsInt():
		return n.Int.Cmp(m.Int) == 0
	case !n.IsInt() && !m.IsInt():
		return n.Float == m.Float
	case math.IsNaN(n.Float) || math.IsNaN(m.Float):
		return false // big.Float has no NaN
	}
	return n.exact().Cmp(m.exact()) == 0
}

// exact is n without rounding: SetInt keeps every bit of an int.
func (n Number) exact() *big.Float {
	if n.IsInt() {
		return new(big.Float).SetInt(n.Int)
	}
	return big.NewFloat(n.Float)
}

// Repr is Python's repr() of a float: the shortest digits that read back,
// positional for exponents in [-4, 16), else scientific (1e+16).
func Repr(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) { // Go's +Inf, -Inf and NaN
		return strings.ToLower(strings.TrimPrefix(strconv.FormatFloat(f, 'g', -1, 64), "+"))
	}
	sci := strconv.FormatFloat(f, 'e', -1, 64)
	mantissa, exp, _ := strings.Cut(sci, "e")
	x, _ := strconv.Atoi(exp)
	if x < -4 || x >= 16 {
		return mantissa + "e" + fmt.Sprintf("%+03d", x)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

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
// int(re.sub(r'\.0*\s*$', "", text)); the caller checks its length limit.
func IntegerField(text string) (*big.Int, bool) {
	trimmed := strings.TrimRight(strings.TrimRightFunc(text, IsSpace), "0")
	if strings.HasSuffix(trimmed, ".") {
		text = trimmed[:len(trimmed)-1]
	}
	return Int(text)
}
