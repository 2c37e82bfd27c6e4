package configresource

import (
	"context"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// TestAttributeNames: the schema is where attribute names are spelled.
// Every other use is checked against it here: the model's tags (by the
// framework's conversion), the raw reads (configOf, which must see what
// that conversion sees, every attribute set and known), and the paths and
// names the code uses outside the schema's literals. Renaming or misspelling
// an attribute anywhere fails this test.
func TestAttributeNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var resp resource.SchemaResponse
	New(framework.Transformation)().Schema(ctx, resource.SchemaRequest{}, &resp)
	s := resp.Schema
	typ, ok := s.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatalf("the schema's type is %T", s.Type().TerraformType(ctx))
	}
	// A distinct known value for every attribute (JSON for the strings, as
	// config and filters want); the timeouts block null.
	vals := map[string]tftypes.Value{}
	for i, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range typ.AttributeTypes {
			if !yield(n) {
				return
			}
		}
	}) {
		at := typ.AttributeTypes[name]
		switch {
		case at.Is(tftypes.String):
			vals[name] = tftypes.NewValue(at, fmt.Sprintf(`{"k":%d}`, i))
		case at.Is(tftypes.Number):
			vals[name] = tftypes.NewValue(at, big.NewFloat(float64(i+1)))
		case at.Is(tftypes.Bool):
			vals[name] = tftypes.NewValue(at, true)
		default:
			vals[name] = tftypes.NewValue(at, nil)
		}
	}
	raw := tftypes.NewValue(typ, vals)
	var converted Model
	if diags := (tfsdk.State{Schema: s, Raw: raw}).Get(ctx, &converted); diags.HasError() {
		t.Fatalf("the model's tags do not match the schema: %v", diags)
	}

	c, known := configOf(raw)
	read := c.RecordModel
	if !known {
		t.Error("configOf found an attribute unknown or of another type")
	}
	got, want := reflect.ValueOf(read), reflect.ValueOf(converted.RecordModel)
	for i := range got.NumField() {
		field := got.Type().Field(i)
		g, _ := got.Field(i).Interface().(attr.Value)
		w, _ := want.Field(i).Interface().(attr.Value)
		if g.IsNull() || g.IsUnknown() || !g.Equal(w) {
			t.Errorf("raw read of %s (tag %q) = %v, the framework's = %v", field.Name, field.Tag.Get("tfsdk"), g, w)
		}
	}
	if secret := c.secret; !secret.Equal(converted.SecretSettings) || secret.IsNull() {
		t.Errorf("raw read of %s = %v, the framework's = %v", settingsSecret, secret, converted.SecretSettings)
	}

	for _, p := range []path.Path{idPath, pluginPath, filtersPath, settingsPath, secretSettingsPath, framework.ProjectIDPath} {
		if _, diags := s.AttributeAtPath(ctx, p); diags.HasError() {
			t.Errorf("the code names %s, which the schema does not have", p)
		}
	}
	if _, ok := s.Blocks[timeoutsBlock]; !ok {
		t.Errorf("the code names the block %s, which the schema does not have", timeoutsBlock)
	}
	for _, name := range writableAttributes {
		if _, ok := s.Attributes[name]; !ok {
			t.Errorf("errors are attached to %s, which the schema does not have", name)
		}
	}
}
