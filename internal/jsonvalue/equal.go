package jsonvalue

import (
	"encoding/json"
	"math/big"
)

// EqualValues reports whether two decoded JSON values (as Decode returns
// them, or encoding/json's float64 numbers) are the same value, numbers
// compared by value.
func EqualValues(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !EqualValues(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !EqualValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number, float64:
		return sameNumber(a, b)
	default:
		return a == b
	}
}

// sameNumber compares two numbers by value, exactly; numbers too large to
// compare that way are compared as written.
func sameNumber(a, b any) bool {
	ra, okA := rat(a)
	rb, okB := rat(b)
	if okA && okB {
		return ra.Cmp(rb) == 0
	}
	return a == b
}

// rat is the exact value of a decoded number.
func rat(v any) (*big.Rat, bool) {
	switch n := v.(type) {
	case json.Number:
		return new(big.Rat).SetString(n.String())
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(n) == nil {
			return nil, false
		}
		return r, true
	default:
		return nil, false
	}
}
