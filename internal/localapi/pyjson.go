package localapi

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// JSON as the service's Python reads it (json.loads) and as PostgreSQL's
// jsonb then stores it. The service reads filters and the form's config
// with Python's json module, which differs from Go's encoding/json in what
// matters here: a string keeps a lone surrogate escaped in it ("\ud800") as
// a character of its own, an integer literal of more than 4300 digits is
// refused, and, for JSON text in a form field (json.loads without DRF's
// strict parser), NaN, Infinity and -Infinity are numbers. decodePyJSON
// reads JSON that way.

// maxIntDigits is Python's limit on the digits of an int read from text
// (sys.get_int_max_str_digits(), since Python 3.11 and 3.10.7).
const maxIntDigits = 4300

// maxPyDepth bounds nesting, as Go's decoder does (Python's recursion
// limit would fail sooner, with a server error).
const maxPyDepth = 10000

// intDigitsError is Python's refusal of a long integer literal.
type intDigitsError struct{ digits int }

func (e intDigitsError) Error() string {
	return fmt.Sprintf("Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", maxIntDigits, e.digits)
}

// Python's float constants, which json.loads reads from NaN, Infinity and
// -Infinity; a decoded value holds them as these json.Number texts.
const (
	pyNaN     = json.Number("NaN")
	pyInf     = json.Number("Infinity")
	pyNegInf  = json.Number("-Infinity")
	replaceCh = "\uFFFD"
)

// decodePyJSON decodes one JSON value as json.loads does: objects are
// map[string]any (the last of repeated keys wins), arrays []any, numbers
// json.Number (their literal text), strings Go strings in which a lone
// surrogate is encoded as its three bytes (WTF-8; invalid UTF-8 in the
// input reads as U+FFFD, as Go's decoder reads it). constants accepts NaN,
// Infinity and -Infinity.
func decodePyJSON(raw []byte, constants bool) (any, error) {
	d := &pyDecoder{s: raw, constants: constants}
	d.space()
	v, err := d.value()
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i != len(d.s) {
		return nil, d.errorf("extra data")
	}
	return v, nil
}

type pyDecoder struct {
	s         []byte
	i         int
	depth     int
	constants bool
}

func (d *pyDecoder) errorf(format string, args ...any) error {
	return fmt.Errorf("%s at offset %d", fmt.Sprintf(format, args...), d.i)
}

// space skips JSON whitespace (Python's json accepts no other).
func (d *pyDecoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *pyDecoder) literal(word string) bool {
	if strings.HasPrefix(string(d.s[d.i:min(len(d.s), d.i+len(word))]), word) {
		d.i += len(word)
		return true
	}
	return false
}

func (d *pyDecoder) value() (any, error) {
	if d.i >= len(d.s) {
		return nil, d.errorf("unexpected end of JSON input")
	}
	switch c := d.s[d.i]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		return d.str()
	case c == '-' || c >= '0' && c <= '9':
		if d.constants && d.literal("-Infinity") {
			return pyNegInf, nil
		}
		return d.number()
	case d.literal("true"):
		return true, nil
	case d.literal("false"):
		return false, nil
	case d.literal("null"):
		return nil, nil
	case d.constants && d.literal("NaN"):
		return pyNaN, nil
	case d.constants && d.literal("Infinity"):
		return pyInf, nil
	}
	return nil, d.errorf("invalid character %q looking for beginning of value", d.s[d.i])
}

func (d *pyDecoder) nest() error {
	d.depth++
	if d.depth > maxPyDepth {
		return d.errorf("exceeded max depth")
	}
	return nil
}

func (d *pyDecoder) object() (any, error) {
	if err := d.nest(); err != nil {
		return nil, err
	}
	d.i++ // {
	obj := map[string]any{}
	d.space()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		d.depth--
		return obj, nil
	}
	for {
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, d.errorf("expecting property name enclosed in double quotes")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, d.errorf("expecting ':' delimiter")
		}
		d.i++
		d.space()
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		obj[k] = v
		d.space()
		if d.i >= len(d.s) {
			return nil, d.errorf("unexpected end of JSON input")
		}
		switch d.s[d.i] {
		case ',':
			d.i++
		case '}':
			d.i++
			d.depth--
			return obj, nil
		default:
			return nil, d.errorf("expecting ',' delimiter")
		}
	}
}

func (d *pyDecoder) array() (any, error) {
	if err := d.nest(); err != nil {
		return nil, err
	}
	d.i++ // [
	list := []any{}
	d.space()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		d.depth--
		return list, nil
	}
	for {
		d.space()
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		d.space()
		if d.i >= len(d.s) {
			return nil, d.errorf("unexpected end of JSON input")
		}
		switch d.s[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			d.depth--
			return list, nil
		default:
			return nil, d.errorf("expecting ',' delimiter")
		}
	}
}

// number reads a number in JSON's grammar; an integer literal of more than
// maxIntDigits digits is Python's ValueError.
func (d *pyDecoder) number() (any, error) {
	start := d.i
	if d.s[d.i] == '-' {
		d.i++
	}
	digits := func() int {
		n := 0
		for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	intDigits := 0
	switch {
	case d.i < len(d.s) && d.s[d.i] == '0':
		d.i++
		intDigits = 1
	default:
		if intDigits = digits(); intDigits == 0 {
			return nil, d.errorf("invalid number")
		}
	}
	isInt := true
	if d.i+1 < len(d.s) && d.s[d.i] == '.' && d.s[d.i+1] >= '0' && d.s[d.i+1] <= '9' {
		d.i++
		digits()
		isInt = false
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		save := d.i
		d.i++
		if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			d.i = save // not an exponent: extra data follows
		} else {
			isInt = false
		}
	}
	if isInt && intDigits > maxIntDigits {
		return nil, intDigitsError{digits: intDigits}
	}
	return json.Number(d.s[start:d.i]), nil
}

// str reads a string; a lone surrogate escape is kept (WTF-8).
func (d *pyDecoder) str() (string, error) {
	d.i++ // "
	var b strings.Builder
	for {
		if d.i >= len(d.s) {
			return "", d.errorf("unterminated string")
		}
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return b.String(), nil
		case c < 0x20:
			return "", d.errorf("invalid control character in string")
		case c == '\\':
			if err := d.escape(&b); err != nil {
				return "", err
			}
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			d.i++
		default:
			r, size := utf8.DecodeRune(d.s[d.i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString(replaceCh)
			} else {
				b.Write(d.s[d.i : d.i+size])
			}
			d.i += size
		}
	}
}

func (d *pyDecoder) escape(b *strings.Builder) error {
	if d.i+1 >= len(d.s) {
		return d.errorf("unterminated string")
	}
	c := d.s[d.i+1]
	if c != 'u' {
		out, ok := simpleEscapes[c]
		if !ok {
			return d.errorf("invalid \\escape")
		}
		b.WriteByte(out)
		d.i += 2
		return nil
	}
	r, ok := hexUnit(d.s, d.i)
	if !ok {
		return d.errorf("invalid \\uXXXX escape")
	}
	d.i += 6
	if r >= 0xd800 && r <= 0xdbff {
		if low, ok := hexUnit(d.s, d.i); ok && low >= 0xdc00 && low <= 0xdfff {
			d.i += 6
			b.WriteRune(0x10000 + (r-0xd800)<<10 + (low - 0xdc00))
			return nil
		}
	}
	writeWTF8(b, r)
	return nil
}

// simpleEscapes are the one-character escapes of JSON strings.
var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hexUnit reads the \uXXXX escape at s[i].
func hexUnit(s []byte, i int) (rune, bool) {
	if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range s[i+2 : i+6] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// continuation holds UTF-8's continuation bytes, 0x80 to 0xBF.
const continuation = "\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f" +
	"\x90\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9d\x9e\x9f" +
	"\xa0\xa1\xa2\xa3\xa4\xa5\xa6\xa7\xa8\xa9\xaa\xab\xac\xad\xae\xaf" +
	"\xb0\xb1\xb2\xb3\xb4\xb5\xb6\xb7\xb8\xb9\xba\xbb\xbc\xbd\xbe\xbf"

// writeWTF8 writes r, a surrogate too, as UTF-8 would encode it: a
// surrogate U+D800..U+DFFF as 0xED, 0xA0..0xBF, 0x80..0xBF.
func writeWTF8(b *strings.Builder, r rune) {
	if r < 0xd800 || r > 0xdfff {
		b.WriteRune(r)
		return
	}
	b.WriteByte(0xed)
	b.WriteByte(continuation[r>>6&0x3f])
	b.WriteByte(continuation[r&0x3f])
}

// firstSurrogate finds the first lone surrogate in a decoded string. In a
// string from decodePyJSON, 0xED followed by 0xA0..0xBF can only be one:
// every other byte sequence is valid UTF-8.
func firstSurrogate(s string) (rune, bool) {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xed && s[i+1] >= 0xa0 && s[i+1] <= 0xbf {
			return 0xd000 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f), true
		}
	}
	return 0, false
}

// pyLen is Python's len() of a decoded string: a lone surrogate is one
// character.
func pyLen(s string) int {
	n := python.Len(s)
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xed && s[i+1] >= 0xa0 && s[i+1] <= 0xbf {
			n -= 2 // counted as three invalid bytes
		}
	}
	return n
}

// pyNumber is a decoded JSON number as Python holds it.
func pyNumber(x json.Number) python.Number {
	switch x {
	case pyNaN:
		return python.Number{Float: math.NaN()}
	case pyInf:
		return python.Number{Float: math.Inf(1)}
	case pyNegInf:
		return python.Number{Float: math.Inf(-1)}
	}
	n, err := python.ParseNumber(string(x))
	if err != nil {
		// Not a JSON literal (cannot come from a decoder): read it as
		// Python's float() would.
		f, _ := strconv.ParseFloat(string(x), 64)
		return python.Number{Float: f}
	}
	return n
}

// storableNumber reports whether PostgreSQL's jsonb can hold n: json.dumps
// writes an infinite or NaN float as Infinity or NaN, which is not JSON.
func storableNumber(n python.Number) bool {
	return n.IsInt() || !math.IsInf(n.Float, 0) && !math.IsNaN(n.Float)
}

// pyStored is a decoded value as the service stores it in a jsonb column
// and answers it afterwards: every number as json.dumps writes what
// json.loads read (integers exact; other numbers the nearest double in its
// shortest form). ok is false when PostgreSQL cannot store the value: an
// infinite or NaN number, or a string (or key) holding a null character
// or a lone surrogate, which jsonb refuses.
func pyStored(v any) (out any, ok bool) {
	switch x := v.(type) {
	case json.Number:
		n := pyNumber(x)
		if !storableNumber(n) {
			return nil, false
		}
		return json.Number(n.String()), true
	case string:
		return x, storableText(x)
	case []any:
		list := make([]any, len(x))
		for i, e := range x {
			if list[i], ok = pyStored(e); !ok {
				return nil, false
			}
		}
		return list, true
	case map[string]any:
		obj := make(map[string]any, len(x))
		for k, e := range x {
			if !storableText(k) {
				return nil, false
			}
			if obj[k], ok = pyStored(e); !ok {
				return nil, false
			}
		}
		return obj, true
	}
	return v, true
}

func storableText(s string) bool {
	if strings.IndexByte(s, 0) >= 0 {
		return false
	}
	_, lone := firstSurrogate(s)
	return !lone
}
