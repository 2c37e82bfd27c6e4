package configresource

import (
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// Where a call only needs to look it reads raw values: the framework's model
// conversion nearly doubles the CPU of a no-change refresh or plan (DESIGN.md).

// configOf reads the config of raw attribute values, and whether each was
// known and of its type.
func configOf(a map[string]tftypes.Value) (RecordModel, bool) {
	if a == nil {
		return RecordModel{}, false
	}
	ok := true
	str := func(name string) types.String {
		v := framework.RawString(a[name])
		ok = ok && !v.IsUnknown()
		return v
	}
	num := func(name string) types.Int64 {
		v := framework.RawInt64(a[name])
		ok = ok && !v.IsUnknown()
		return v
	}
	c := RecordModel{
		ID: num("id"), ProjectID: str("project_id"), Plugin: num("plugin"), Order: num("order"),
		Name: str("name"), Description: str("description"),
		Filters:   FiltersValue{StringValue: str("filters")},
		Settings:  jsontypes.Normalized{StringValue: str("config")},
		CreatedAt: str("created_at"), UpdatedAt: str("updated_at"),
	}
	var enabled bool
	switch v := a["enabled"]; {
	case v.IsNull():
		c.Enabled = types.BoolNull()
	case !v.IsKnown() || v.As(&enabled) != nil:
		ok = false
	default:
		c.Enabled = types.BoolValue(enabled)
	}
	return c, ok
}

// configured is what planning needs of a configuration.
type configured struct {
	RecordModel
	secret types.String
}

func configuredOf(raw tftypes.Value) configured {
	a := framework.RawAttributes(raw)
	c, _ := configOf(a)
	return configured{RecordModel: c, secret: framework.RawString(a[settingsSecret])}
}
