// Package jsonvalue owns what the provider does with JSON text as values,
// free of Terraform and HTTP: whether text is null, its compact form,
// decoding one value without losing number precision, the one semantic
// equality every comparison of JSON values uses (plugin settings, filters
// after their normalisation, create recovery, tests), numbers compared as
// the service's Python reads them, and the lenient scalars the API client
// decodes records with.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
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

// Object decodes s as a JSON object, values as they are written; false when
// s is anything else (null included).
func Object(s string) (map[string]json.RawMessage, bool) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil || obj == nil {
		return nil, false
	}
	return obj, true
}

// Equal reports whether two JSON texts hold the same value: key order and
// spacing aside, numbers compared as the service reads them (1 and 1.0
// are equal; integers exact at any size; other numbers as doubles, so
// digits past a double's precision are no difference). Text that is not
// JSON is equal only to the same text.
func Equal(a, b json.RawMessage) bool {
	if bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b)) {
		return true
	}
	va, errA := Decode(string(a))
	vb, errB := Decode(string(b))
	return errA == nil && errB == nil && EqualValues(va, vb)
}
