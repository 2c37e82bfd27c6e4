package configresource

import (
	"math"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestConfigOf: the raw read of a state gives what the framework's
// conversion would, and says when it cannot.
func TestConfigOf(t *testing.T) {
	t.Parallel()
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	num := func(n float64) tftypes.Value { return tftypes.NewValue(tftypes.Number, n) }
	state := map[string]tftypes.Value{
		"id": num(42), "project_id": str("1"), "plugin": num(3), "enabled": tftypes.NewValue(tftypes.Bool, true),
		"order": num(-2), "name": str("n"), "description": tftypes.NewValue(tftypes.String, nil),
		"filters": str(`{}`), "config": str(`{"a":1}`), "created_at": str("c"), "updated_at": str("u"),
	}
	c, ok := configOf(object(state))
	if !ok {
		t.Fatal("a known state not read")
	}
	for name, v := range map[string]struct{ got, want any }{
		"id": {c.ID, types.Int64Value(42)}, "project_id": {c.ProjectID, types.StringValue("1")},
		"plugin": {c.Plugin, types.Int64Value(3)}, "enabled": {c.Enabled, types.BoolValue(true)},
		"order": {c.Order, types.Int64Value(-2)}, "name": {c.Name, types.StringValue("n")},
		"description": {c.Description, types.StringNull()}, "filters": {c.Filters.StringValue, types.StringValue(`{}`)},
		"config": {c.Settings.StringValue, types.StringValue(`{"a":1}`)}, "created_at": {c.CreatedAt, types.StringValue("c")},
		"updated_at": {c.UpdatedAt, types.StringValue("u")},
	} {
		if v.got != v.want {
			t.Errorf("%s = %v, want %v", name, v.got, v.want)
		}
	}

	for name, bad := range map[string]tftypes.Value{
		"an unknown value":      tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"a fraction as id":      num(1.5),
		"a number beyond int64": num(math.MaxFloat64),
		"a string as a number":  str("x"),
	} {
		attr := "id"
		if bad.Type().Is(tftypes.String) && name == "an unknown value" {
			attr = "name"
		}
		broken := map[string]tftypes.Value{}
		for k, v := range state {
			broken[k] = v
		}
		broken[attr] = bad
		if _, ok := configOf(object(broken)); ok {
			t.Errorf("%s in %s read as known", name, attr)
		}
	}
}

// object is the raw object of attribute values a.
func object(a map[string]tftypes.Value) tftypes.Value {
	types := map[string]tftypes.Type{}
	for name, v := range a {
		types[name] = v.Type()
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: types}, a)
}
