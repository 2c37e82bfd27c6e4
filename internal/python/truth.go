package python

import (
	"bytes"
	"encoding/json"
)

// Truthy is Python's truth test of a JSON value as json.loads decodes it:
// null, false, "", 0, 0.0, [] and {} are false, everything else is true.
// The service masks a secret setting, and finds a config_schema field
// secret, only when the value is true this way.
func Truthy(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	switch string(raw) {
	case "", "null", "false", `""`, "[]", "{}":
		return false
	}
	switch raw[0] {
	case '[', '{':
		var v any
		if json.Unmarshal(raw, &v) == nil {
			switch x := v.(type) {
			case []any:
				return len(x) > 0
			case map[string]any:
				return len(x) > 0
			}
		}
		return true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var f float64
		if json.Unmarshal(raw, &f) == nil {
			return f != 0
		}
	}
	return true
}
