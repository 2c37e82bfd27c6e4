package jsonvalue

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// EqualValues reports whether two decoded JSON values (as Decode returns
// them, or encoding/json's float64 numbers) are the same value to the
// service, numbers compared as Python compares what json.loads makes of
// them (sameNumber).
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

// sameNumber compares two numbers as the service sees them: an integer
// literal is an exact int of any size, any other number the nearest double
// (so a 40-digit 1/3 and 0.3333333333333333 are the same value, as are 1
// and 1.0), compared with Python's ==.
func sameNumber(a, b any) bool {
	na, okA := number(a)
	nb, okB := number(b)
	if okA && okB {
		return na.Equal(nb)
	}
	return a == b
}

// number reads a decoded number as Python does.
func number(v any) (python.Number, bool) {
	switch n := v.(type) {
	case json.Number:
		p, err := python.ParseNumber(n.String())
		return p, err == nil
	case float64:
		return python.Number{Float: n}, true
	default:
		return python.Number{}, false
	}
}

// InfiniteNumber finds, in a decoded value (numbers as json.Number), a
// number the service's Python reads as an infinite float (1e400): json.dumps
// writes it as Infinity, which is not JSON, so the service cannot store it.
// It returns where the first such number is, as a path from the value
// (`.rate`, `[2].limits.max`; "" for the value itself), object keys taken
// in sorted order. The path shows no value, so that it may name a secret's.
func InfiniteNumber(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := python.ParseNumber(x.String())
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
