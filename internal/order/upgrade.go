package order

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

var _ resource.ResourceWithUpgradeState = (*orderResource)(nil)

// UpgradeState implements resource.ResourceWithUpgradeState: version 0
// gains what version 1 has: unlisted_configs is "last", what apply already
// did with configs missing from config_ids, and unlisted_config_ids is
// empty, as the state of version 0 listed every config it knew in
// config_ids; the next refresh fills it in.
func (r *orderResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: framework.JSONStateUpgrader("order", func(attrs map[string]json.RawMessage) {
		attrs["unlisted_configs"] = json.RawMessage(`"` + unlistedLast + `"`)
		attrs["unlisted_config_ids"] = json.RawMessage(`[]`)
	})}
}
