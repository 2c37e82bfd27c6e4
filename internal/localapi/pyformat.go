package localapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// pyRepr writes a decoded JSON value as Python's repr() would. Object keys
// come sorted (Python would keep the sent order, which decoding loses).
func pyRepr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return string(x)
	case string:
		quote := "'"
		if strings.Contains(x, "'") && !strings.Contains(x, `"`) {
			quote = `"`
		}
		var sb strings.Builder
		sb.WriteString(quote)
		for _, r := range x {
			switch {
			case r == '\\':
				sb.WriteString(`\\`)
			case string(r) == quote:
				sb.WriteString(`\` + quote)
			case r == '\n':
				sb.WriteString(`\n`)
			case r == '\r':
				sb.WriteString(`\r`)
			case r == '\t':
				sb.WriteString(`\t`)
			case r < 0x20 || r == 0x7f:
				fmt.Fprintf(&sb, `\x%02x`, r)
			default:
				sb.WriteRune(r)
			}
		}
		sb.WriteString(quote)
		return sb.String()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		parts := make([]string, 0, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			parts = append(parts, pyRepr(k)+": "+pyRepr(x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// pyStr writes a decoded JSON value as Python's str() would: a string as it
// is, anything else as repr().
func pyStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return pyRepr(v)
}
