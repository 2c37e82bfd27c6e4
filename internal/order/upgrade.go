package order

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

var _ resource.ResourceWithUpgradeState = (*orderResource)(nil)

// UpgradeState implements resource.ResourceWithUpgradeState.
func (r *orderResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: {StateUpgrader: upgradeFromVersion0}}
}

// upgradeFromVersion0 adds what version 1 has and version 0 had not:
// unlisted_configs is "last", what apply already did with configs missing
// from config_ids, and unlisted_config_ids is empty, as the state of
// version 0 listed every config it knew in config_ids; the next refresh
// fills it in. Every other attribute keeps its value, so the next plan
// shows no change.
func upgradeFromVersion0(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	var raw []byte
	if req.RawState != nil {
		raw = req.RawState.JSON
	}
	upgraded, err := upgradeVersion0(raw)
	if err != nil {
		resp.Diagnostics.AddError("Unexpected state of version 0",
			"The state of this order is not the JSON object version 0 of the provider wrote. "+
				"Remove it from the state (terraform state rm) and import the order again.")
		return
	}
	resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
}

// upgradeVersion0 turns the attributes of a version 0 state (JSON) into
// those of version 1.
func upgradeVersion0(raw []byte) ([]byte, error) {
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil || attrs == nil {
		return nil, errors.New("its state of version 0 is not a JSON object of attributes")
	}
	attrs["unlisted_configs"] = json.RawMessage(`"` + unlistedLast + `"`)
	attrs["unlisted_config_ids"] = json.RawMessage(`[]`)
	return json.Marshal(attrs)
}
