package configresource

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

var _ resource.ResourceWithUpgradeState = (*configResource)(nil)

// removedInVersion1 are the attributes of version 0 that describe the
// plugin, change on their own or never change; the data source shows them.
var removedInVersion1 = []string{"plugin_info", "delivery_rate_24h", "error", "deleted", "team_id"}

// UpgradeState implements resource.ResourceWithUpgradeState; the plugin
// facts come with the next read.
func (r *configResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: framework.JSONStateUpgrader("config", dropRemovedInVersion1)}
}

// dropRemovedInVersion1 turns version 0 attributes into version 1's, for
// an upgrade or a move (move.go).
func dropRemovedInVersion1(attrs map[string]json.RawMessage) {
	for _, name := range removedInVersion1 {
		delete(attrs, name)
	}
}
