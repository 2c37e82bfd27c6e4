package order

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

var _ resource.ResourceWithUpgradeState = (*orderResource)(nil)

// UpgradeState implements resource.ResourceWithUpgradeState: version 0
// did "last" with unlisted configs, and listed every config it knew.
func (r *orderResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: framework.JSONStateUpgrader("order", func(attrs map[string]json.RawMessage) {
		attrs["unlisted_configs"] = json.RawMessage(`"` + unlistedLast + `"`)
		attrs["unlisted_config_ids"] = json.RawMessage(`[]`)
	})}
}
