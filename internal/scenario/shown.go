package scenario

import (
	"encoding/json"
	"math/big"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// Shown is what a plan shows of one resource, as Terraform renders it: the
// action, the config the resource held (0: none), and the values of the
// attributes before and after. The protocol-level scenarios and the
// terraform binary's plans (terraform show -json) both come to this form.
type Shown struct {
	Name   string
	Action string // "noop", "create", "update", "replace", "delete"
	ID     int64
	// Before and After hold each attribute as null (nil), a string, a bool,
	// a *big.Float, or Unknown (after only: known after apply).
	Before, After map[string]any
}

// Unknown is an attribute value known only after the apply.
type Unknown struct{}

// ShownOf renders a protocol-level plan of resource name.
func ShownOf(name string, p *acctest.Plan) Shown {
	s := Shown{Name: name, Action: p.Action(), Before: valuesOf(p.Prior.State), After: valuesOf(p.Planned)}
	if id, _, ok := idOf(p.Prior); ok {
		s.ID = id
	}
	return s
}

func valuesOf(v tftypes.Value) map[string]any {
	attrs := map[string]tftypes.Value{}
	if v.Type() == nil || v.IsNull() || v.As(&attrs) != nil {
		return nil
	}
	out := make(map[string]any, len(attrs))
	for name, a := range attrs {
		out[name] = scalarOf(a)
	}
	return out
}

// scalarOf reads a primitive attribute value (other types are not
// compared, and read as Unknown).
func scalarOf(v tftypes.Value) any {
	switch {
	case !v.IsKnown():
		return Unknown{}
	case v.IsNull():
		return nil
	}
	var s string
	if v.As(&s) == nil {
		return s
	}
	var b bool
	if v.As(&b) == nil {
		return b
	}
	var f big.Float
	if v.As(&f) == nil {
		return &f
	}
	return Unknown{}
}

// Same reports whether the plan shows attribute attr unchanged: known
// after the apply and equal to its value before.
func (s Shown) Same(attr string) bool {
	a, ok := s.After[attr]
	if _, unknown := a.(Unknown); unknown || !ok {
		return false
	}
	return sameValue(s.Before[attr], a)
}

func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case *big.Float:
		y, ok := b.(*big.Float)
		return ok && x.Cmp(y) == 0
	default:
		return a == b
	}
}

// Text returns attribute attr as text (JSON attributes), and whether it
// is known text.
func Text(values map[string]any, attr string) (string, bool) {
	s, ok := values[attr].(string)
	return s, ok
}

// Settings reads a JSON-object attribute (config) of values: nil when it
// is null or not an object.
func Settings(values map[string]any, attr string) map[string]json.RawMessage {
	text, ok := Text(values, attr)
	if !ok {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &obj) != nil {
		return nil
	}
	return obj
}
