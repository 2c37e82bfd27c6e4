package configresource

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

var _ resource.ResourceWithUpgradeState = (*configResource)(nil)

// removedInVersion1 are the attributes state version 0 held and version 1
// does not: what describes the plugin (plugin_info), changes on its own
// (delivery_rate_24h, error), is always false while managed (deleted) or is
// the project's (team_id). The data source pipeline_KIND_config shows them.
var removedInVersion1 = []string{"plugin_info", "delivery_rate_24h", "error", "deleted", "team_id"}

// UpgradeState implements resource.ResourceWithUpgradeState.
func (r *configResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: {StateUpgrader: upgradeFromVersion0}}
}

// upgradeFromVersion0 drops the attributes version 1 no longer has; every
// other attribute keeps its value, so the next plan shows no change. The
// plugin facts the plan uses come with the next read (private state has
// none yet: the plan then keeps a name or description left to the plugin).
func upgradeFromVersion0(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var raw []byte
	if req.RawState != nil {
		raw = req.RawState.JSON
	}
	upgraded, err := upgradeVersion0(raw)
	if err != nil {
		resp.Diagnostics.AddError("Unexpected state of version 0",
			"The state of this config is not the JSON object version 0 of the provider wrote. "+
				"Remove it from the state (terraform state rm) and import the config again.")
		return
	}
	resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
}

// upgradeVersion0 turns the attributes of a version 0 state (JSON) into
// those of version 1; a state moved from another provider address goes
// the same way (move.go).
func upgradeVersion0(raw []byte) ([]byte, error) {
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil || attrs == nil {
		return nil, errors.New("its state of version 0 is not a JSON object of attributes")
	}
	for _, name := range removedInVersion1 {
		delete(attrs, name)
	}
	// Decoded JSON values always encode again.
	return json.Marshal(attrs)
}
