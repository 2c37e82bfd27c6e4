// JSON text as the service's json module reads it, free of Terraform and
// HTTP (DESIGN.md): the one semantic equality, lossless decoding, lenient
// scalars.

package python

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

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
	va, errA := Decode(string(a))
	vb, errB := Decode(string(b))
	return errA == nil && errB == nil && EqualValues(va, vb)
}

// EqualValues reports whether two values as Decode returns them are the same
// to the service: numbers as Python compares what json.loads makes of them.
func EqualValues(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && maps.EqualFunc(x, y, EqualValues)
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, EqualValues)
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		na, errA := ParseNumber(x.String())
		nb, errB := ParseNumber(y.String())
		return errA == nil && errB == nil && na.Equal(nb) || x == y
	default:
		return a == b
	}
}

// InfiniteNumber returns the path (`.rate`, `[2].max`) of a number the
// service cannot store (1e400): a path, not a value, which may be secret.
func InfiniteNumber(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := ParseNumber(x.String())
		return "", err == nil && !n.IsFinite()
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
	if IsNull(data) {
		*n = 0
		return nil
	}
	data = bytes.TrimSpace(data)
	s := string(data)
	if data[0] == '"' {
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			*n = 0
			return nil
		}
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
