package collection

import (
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// jsonValue renders any JSON value from the service as compact JSON text;
// an absent value or null is null.
func jsonValue(raw json.RawMessage) jsontypes.Normalized {
	if jsonvalue.IsNull(raw) {
		return jsontypes.NewNormalizedNull()
	}
	return jsontypes.NewNormalizedValue(jsonvalue.Compact(raw))
}
