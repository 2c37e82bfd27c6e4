// Package python holds facts about the Python the live service runs on,
// which the local API and the provider both need (DESIGN.md): text, truth,
// numbers, and JSON as its json module reads and writes it.
package python

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
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
	v, err := Decode(string(raw))
	if err != nil {
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

// Number is a JSON number as the service's json.loads reads it: a literal
// without fraction or exponent an exact int, any other the nearest double.
type Number struct {
	Int   *big.Int // nil for a float
	Float float64
	Lit   string // the literal ParseNumber read
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
		return Number{Int: n, Lit: lit}, nil
	}
	// ParseFloat rounds as Python's float() does; past the range it answers
	// ±Inf with ErrRange, Python's inf.
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Number{}, ErrNotNumber
	}
	return Number{Float: f, Lit: lit}, nil
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
	case m.IsInt():
		n, m = m, n
	}
	// n is the int and m the float; SetInt keeps every bit of the int.
	return new(big.Float).SetInt(n.Int).Cmp(big.NewFloat(m.Float)) == 0
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
		b.WriteByte(s[0]) // which big.Int reads too
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

// IsNull reports whether raw is absent or the JSON null.
func IsNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// Compact renders raw as compact JSON text; text that is not JSON is kept
// as it is.
func Compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// Decode decodes exactly one JSON value from s, numbers as json.Number so
// that no precision is lost.
func Decode(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// Load decodes exactly one JSON value from s as json.loads reads it,
// numbers as Number.
func Load(s string) (any, error) {
	v, err := Decode(s)
	return numbers(v), err
}

// numbers replaces every json.Number in v by its Number.
func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		n, _ := ParseNumber(string(x)) // the decoder read a JSON number
		return n
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	}
	return v
}

// Object decodes s as a JSON object, values as written; false for anything
// else (null included).
func Object(s string) (map[string]json.RawMessage, bool) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil || obj == nil {
		return nil, false
	}
	return obj, true
}

// Equal reports whether two JSON texts hold the same value to the service
// (EqualValues); text that is not JSON is equal only to the same text.
func Equal(a, b json.RawMessage) bool {
	if bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b)) {
		return true
	}
	va, errA := Load(string(a))
	vb, errB := Load(string(b))
	return errA == nil && errB == nil && EqualValues(va, vb)
}

// EqualValues reports whether two values as Load returns them are the same
// to the service: numbers as Python compares them.
func EqualValues(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && maps.EqualFunc(x, y, EqualValues)
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, EqualValues)
	case Number:
		y, ok := b.(Number)
		return ok && x.Equal(y)
	default:
		return a == b
	}
}

// InfiniteNumber returns the path (`.rate`, `[2].max`) of a number the
// service cannot store (1e400): a path, not a value, which may be secret.
func InfiniteNumber(v any) (string, bool) {
	switch x := v.(type) {
	case Number:
		return "", !x.IsFinite()
	case []any:
		for i, e := range x {
			if at, ok := InfiniteNumber(e); ok {
				return "[" + strconv.Itoa(i) + "]" + at, true
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if at, ok := InfiniteNumber(x[k]); ok {
				return "." + k + at, true
			}
		}
	}
	return "", false
}

// FlexInt decodes an integer sent as a number, a numeric string, an integral
// float (5.0) or null (0): one odd field must not make a record unreadable.
type FlexInt int64

// UnmarshalJSON decodes leniently; see FlexInt.
func (n *FlexInt) UnmarshalJSON(data []byte) error {
	s := string(bytes.TrimSpace(data))
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
	}
	if s == "" || IsNull(data) {
		*n = 0
		return nil
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		*n = FlexInt(v)
		return nil
	}
	f, err := strconv.ParseFloat(s, 64) // 5.0 or 5e0: only integral and in range
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return fmt.Errorf("not an integer: %.40q", s)
	}
	*n = FlexInt(int64(f))
	return nil
}

// FlexBool decodes a boolean sent as true/false, "true"/"false", 1/0,
// "1"/"0" or null (false), for the same reason as FlexInt.
type FlexBool bool

// UnmarshalJSON decodes leniently; see FlexBool.
func (b *FlexBool) UnmarshalJSON(data []byte) error {
	s := strings.Trim(strings.TrimSpace(string(data)), `"`)
	switch strings.ToLower(s) {
	case "true", "1", "t", "yes":
		*b = true
	case "false", "0", "f", "no", "", "null":
		*b = false
	default:
		return fmt.Errorf("not a boolean: %.40q", s)
	}
	return nil
}
