package collection

import (
	"bytes"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
)

// isJSONNull reports whether raw is absent or the JSON null.
func isJSONNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// compactJSON renders raw as compact JSON text.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		// The client decoded it, so it is JSON; keep it as is if not.
		return string(raw)
	}
	return b.String()
}

// jsonValue renders any JSON value from the service as compact JSON text;
// an absent value or null is null.
func jsonValue(raw json.RawMessage) jsontypes.Normalized {
	if isJSONNull(raw) {
		return jsontypes.NewNormalizedNull()
	}
	return jsontypes.NewNormalizedValue(compactJSON(raw))
}
