package framework

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// JSONStateUpgrader upgrades a state of a noun by change to its JSON
// attributes; the others keep their values, so the next plan shows no change.
func JSONStateUpgrader(noun string, change func(attrs map[string]json.RawMessage)) resource.StateUpgrader {
	return resource.StateUpgrader{StateUpgrader: func(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
		var raw []byte
		if req.RawState != nil {
			raw = req.RawState.JSON
		}
		upgraded, err := UpgradeJSON(raw, change)
		if err != nil {
			resp.Diagnostics.AddError("Unexpected state of an earlier version", fmt.Sprintf(
				"The state of this %s is not the JSON object an earlier version of the provider wrote. "+
					"Remove it from the state (terraform state rm) and import the %s again.", noun, noun))
			return
		}
		resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
	}}
}

// UpgradeJSON applies change to the attributes of a state's JSON.
func UpgradeJSON(raw []byte, change func(attrs map[string]json.RawMessage)) ([]byte, error) {
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil || attrs == nil {
		return nil, errors.New("its state is not a JSON object of attributes")
	}
	change(attrs)
	return json.Marshal(attrs)
}
