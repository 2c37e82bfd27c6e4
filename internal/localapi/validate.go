package localapi

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// Field limits of the live model.
const (
	maxNameLen        = 400
	maxDescriptionLen = 1000
	minOrder          = math.MinInt32
	maxOrder          = math.MaxInt32
)

// configInput is a validated create or update body. A nil pointer, or an
// optional with set false, is a field the body left out.
type configInput struct {
	plugin      *int64
	enabled     *bool
	order       *int64
	name        optional[*string]
	description optional[*string]
	deleted     *bool
	filters     optional[json.RawMessage] // value nil: null
	// config is set only by a form body's config field (JSON bodies cannot
	// set it, as on the live service).
	config map[string]json.RawMessage
	// unstorable is a valid input holding a value PostgreSQL's jsonb
	// cannot store (pyStored): the service's save fails with a DataError,
	// which it answers as any unexpected exception (errServer), and
	// nothing is stored.
	unstorable bool
}

type optional[T any] struct {
	set   bool
	value T
}

// parseConfigInput validates a create (partial false) or update body. Fields
// are checked in the live serializer's order and the first error wins.
// Without hasFilters (generation 2 on, where the record has no such field)
// a filters field is ignored, as DRF ignores unknown fields.
func parseConfigInput(b *body, cat *catalog, partial, hasFilters bool) (*configInput, *apiError) {
	var obj map[string]any
	if !b.isForm() {
		var e *apiError
		if obj, e = b.object(); e != nil {
			return nil, e
		}
	}
	in := &configInput{}
	form := b.isForm()

	if v, ok := b.field(obj, "plugin"); ok {
		id, e := coercePlugin(v, form, cat)
		if e != nil {
			return nil, e
		}
		in.plugin = &id
	} else if !partial {
		return nil, errRequired("plugin")
	}

	if v, ok := b.field(obj, "enabled"); ok && (!form || v != "") {
		x, e := coerceBool(v, "enabled")
		if e != nil {
			return nil, e
		}
		in.enabled = &x
	}

	if v, ok := b.field(obj, "order"); ok {
		n, e := coerceInt32(v, "order")
		if e != nil {
			return nil, e
		}
		in.order = &n
	} else if !partial {
		return nil, errRequired("order")
	}

	for _, f := range []struct {
		attr string
		max  int
		dst  *optional[*string]
	}{{"name", maxNameLen, &in.name}, {"description", maxDescriptionLen, &in.description}} {
		if v, ok := b.field(obj, f.attr); ok {
			s, e := coerceText(b, v, f.attr, f.max)
			if e != nil {
				return nil, e
			}
			*f.dst = optional[*string]{set: true, value: s}
		}
	}

	if v, ok := b.field(obj, "deleted"); ok && (!form || v != "") {
		x, e := coerceBool(v, "deleted")
		if e != nil {
			return nil, e
		}
		in.deleted = &x
	}

	// Values PostgreSQL cannot store pass validation and fail the save.
	storable := true
	if v, ok := b.pyField(obj, "filters"); ok && hasFilters {
		raw, stored, e := parseFilters(v, form)
		if e != nil {
			return nil, e
		}
		storable = storable && stored
		in.filters = optional[json.RawMessage]{set: true, value: raw}
	}

	if form {
		cfg, stored, e := parseFormConfig(b)
		if e != nil {
			return nil, e
		}
		storable = storable && stored
		in.config = cfg
	}
	in.unstorable = !storable
	return in, nil
}

// coercePlugin reads a primary key and checks the plugin exists.
func coercePlugin(v any, form bool, cat *catalog) (int64, *apiError) {
	if form && v == "" {
		v = nil // relational fields read an empty form value as null
	}
	incorrect := func() (int64, *apiError) {
		return 0, errValidation("incorrect_type", "Incorrect type. Expected pk value, received "+pyType(v)+".", "plugin")
	}
	var id int64
	var shown string
	switch x := v.(type) {
	case nil:
		return 0, errNullField("plugin")
	case json.Number:
		n, ok := integralNumber(x)
		if !ok {
			return incorrect()
		}
		if !n.IsInt64() {
			return 0, errDoesNotExist(string(x))
		}
		id, shown = n.Int64(), string(x)
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return incorrect()
		}
		id, shown = n, x
	default:
		return incorrect()
	}
	if cat.get(id) == nil {
		return 0, errDoesNotExist(shown)
	}
	return id, nil
}

func errDoesNotExist(pk string) *apiError {
	return errValidation("does_not_exist", fmt.Sprintf("Invalid pk %q - object does not exist.", pk), "plugin")
}

// Strings a boolean field accepts, as the live serializer does.
var (
	trueStrings  = map[string]bool{"t": true, "T": true, "y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "true": true, "True": true, "TRUE": true, "on": true, "On": true, "ON": true, "1": true}
	falseStrings = map[string]bool{"f": true, "F": true, "n": true, "N": true, "no": true, "No": true, "NO": true, "false": true, "False": true, "FALSE": true, "off": true, "Off": true, "OFF": true, "0": true}
)

func coerceBool(v any, attr string) (bool, *apiError) {
	switch x := v.(type) {
	case nil:
		return false, errNullField(attr)
	case bool:
		return x, nil
	case string:
		if trueStrings[x] {
			return true, nil
		}
		if falseStrings[x] {
			return false, nil
		}
	case json.Number:
		// 1 and 0 (also 1.0 and 0.0) are booleans to the live service
		// (Python's 1.0 in {1} is true).
		n := pyNumber(x)
		if n.Equal(python.Number{Int: big.NewInt(1)}) {
			return true, nil
		}
		if n.Equal(python.Number{Int: big.NewInt(0)}) {
			return false, nil
		}
	}
	return false, errInvalid(msgNotBool, attr)
}

// coerceInt32 reads an integer the way the live serializer does (numbers,
// integral floats, numeric strings) and checks the 32-bit column range.
func coerceInt32(v any, attr string) (int64, *apiError) {
	var n *big.Int
	switch x := v.(type) {
	case nil:
		return 0, errNullField(attr)
	case json.Number:
		var ok bool
		if n, ok = python.IntegerField(pyNumber(x).Str()); !ok {
			return 0, errInvalid(msgNotInteger, attr)
		}
	case string:
		if python.Len(x) > maxIntegerText {
			return 0, errValidation("max_string_length", "String value too large.", attr)
		}
		var ok bool
		if n, ok = python.IntegerField(x); !ok {
			return 0, errInvalid(msgNotInteger, attr)
		}
	default:
		return 0, errInvalid(msgNotInteger, attr)
	}
	if n.Cmp(big.NewInt(maxOrder)) > 0 {
		return 0, errValidation("max_value", fmt.Sprintf("Ensure this value is less than or equal to %d.", maxOrder), attr)
	}
	if n.Cmp(big.NewInt(minOrder)) < 0 {
		return 0, errValidation("min_value", fmt.Sprintf("Ensure this value is greater than or equal to %d.", minOrder), attr)
	}
	return n.Int64(), nil
}

// integralNumber reads a JSON number that denotes an integer: an integer
// literal, or a float with no fraction small enough that Python prints it
// without an exponent (the live service goes through str()).
func integralNumber(x json.Number) (*big.Int, bool) {
	s := string(x)
	if isIntegerLiteral(s) {
		n, ok := new(big.Int).SetString(s, 10)
		return n, ok
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) >= 1e16 {
		return nil, false
	}
	n, _ := new(big.Float).SetFloat64(f).Int(nil)
	return n, true
}

func isIntegerLiteral(s string) bool {
	return !strings.ContainsAny(s, ".eE")
}

// maxIntegerText is DRF's IntegerField.MAX_STRING_LENGTH: longer text
// is refused before it is parsed.
const maxIntegerText = 1000

// coerceText reads a nullable string field as the service's CharField
// does: numbers become their text, surrounding whitespace is stripped as
// Python strips it (a value of whitespace alone is "", which skips the
// checks), then the checks run in DRF's order and the first failing one
// answers: the length in characters, null characters, lone surrogates.
func coerceText(b *body, v any, attr string, maxLen int) (*string, *apiError) {
	var s string
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		if b.isForm() && x == "" {
			return nil, nil // an empty form value means null
		}
		s = x
	case json.Number:
		s = pyNumber(x).Str() // Python's str(): 1.50 is "1.5"
	default:
		return nil, errInvalid(msgNotString, attr)
	}
	s = python.Strip(s)
	switch {
	case s == "":
	case python.Len(s) > maxLen:
		return nil, errValidation("max_length", fmt.Sprintf("Ensure this field has no more than %d characters.", maxLen), attr)
	case strings.ContainsRune(s, 0):
		return nil, errValidation("null_characters_not_allowed", "Null characters are not allowed.", attr)
	default:
		if r, ok := b.loneSurrogate(attr); ok {
			return nil, errValidation("surrogate_characters_not_allowed",
				fmt.Sprintf("Surrogate characters are not allowed: U+%X.", r), attr)
		}
	}
	return &s, nil
}

// parseFormConfig reads the config form field: a JSON object string, read
// as the service reads it (json.loads: NaN and Infinity are numbers) and
// stored with every number as json.dumps writes it. An absent or empty
// field leaves config alone. stored is false when PostgreSQL cannot store
// the object (pyStored).
func parseFormConfig(b *body) (cfg map[string]json.RawMessage, stored bool, e *apiError) {
	v, ok := b.formValue("config")
	if !ok || v == "" {
		return nil, true, nil
	}
	decoded, err := decodePyJSON([]byte(v), true)
	if err != nil {
		return nil, false, errInvalid("Value must be valid JSON.", "config")
	}
	obj, isObj := decoded.(map[string]any)
	if !isObj {
		return nil, false, errValidation("not_a_dict", fmt.Sprintf("Expected a dictionary of items but got type %q.", pyType(decoded)), "config")
	}
	cfg = map[string]json.RawMessage{}
	for k, val := range obj {
		normal, ok := pyStored(val)
		if !ok || !storableText(k) {
			return nil, false, nil
		}
		raw, err := marshalJSON(normal)
		if err != nil {
			return nil, false, errServer()
		}
		cfg[k] = raw
	}
	return cfg, true, nil
}
