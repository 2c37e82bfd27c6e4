package configresource

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

var _ resource.ResourceWithUpgradeState = (*configResource)(nil)

// removedInVersion1 are the attributes state version 0 held and version 1
// does not: what describes the plugin (plugin_info), changes on its own
// (delivery_rate_24h, error), is always false while managed (deleted) or is
// the project's (team_id). The data source pipeline_KIND_config shows them.
var removedInVersion1 = []string{"plugin_info", "delivery_rate_24h", "error", "deleted", "team_id"}

// UpgradeState implements resource.ResourceWithUpgradeState: version 0
// loses the attributes version 1 no longer has. The plugin facts the plan
// uses come with the next read (private state has none yet: the plan then
// keeps a name or description left to the plugin).
func (r *configResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: framework.JSONStateUpgrader("config", dropRemovedInVersion1)}
}

// dropRemovedInVersion1 turns the attributes of a version 0 state into
// those of version 1; a state moved from another provider address goes the
// same way (move.go).
func dropRemovedInVersion1(attrs map[string]json.RawMessage) {
	for _, name := range removedInVersion1 {
		delete(attrs, name)
	}
}
