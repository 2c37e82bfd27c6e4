package framework

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// IsSet reports whether v holds a value to send: neither null nor unknown.
func IsSet(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

// StoreIdentity stores identity v when Terraform supports identities and the
// resource holds none yet: the framework refuses a changed identity.
func StoreIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, v any) diag.Diagnostics {
	if identity == nil || !identity.Raw.IsFullyNull() {
		return nil
	}
	return identity.Set(ctx, v)
}

// SetImportedIdentity stores the identity an import resolved over the one it named.
func SetImportedIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, v any) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, v)
}

// RawAttributes returns the attribute values of a configuration, plan or
// state; nil when null or unknown. Far cheaper than the framework's path
// lookups or model conversions, which walk the schema.
func RawAttributes(v tftypes.Value) map[string]tftypes.Value {
	var m map[string]tftypes.Value
	if !v.IsKnown() || v.IsNull() || v.As(&m) != nil {
		return nil
	}
	return m
}

// RawString converts a raw string value (absent: null; not a string: unknown).
func RawString(v tftypes.Value) types.String {
	var s string
	switch {
	case v.IsNull():
		return types.StringNull()
	case !v.IsKnown() || v.As(&s) != nil:
		return types.StringUnknown()
	}
	return types.StringValue(s)
}

// RawInt64 converts a raw number value (absent: null; not an int64: unknown).
func RawInt64(v tftypes.Value) types.Int64 {
	var n big.Float
	switch {
	case v.IsNull():
		return types.Int64Null()
	case !v.IsKnown() || v.As(&n) != nil:
		return types.Int64Unknown()
	}
	if i, acc := n.Int64(); acc == big.Exact { // a fraction or out of range is not
		return types.Int64Value(i)
	}
	return types.Int64Unknown()
}

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
