package configresource

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

var (
	_ basetypes.StringTypable                    = FiltersType{}
	_ basetypes.StringValuableWithSemanticEquals = FiltersValue{}
	_ xattr.ValidateableAttribute                = FiltersValue{}
)

// FiltersType is the type of the filters attribute: a JSON object string
// compared as the service normalises it, so that what it reads back is no
// diff.
type FiltersType struct {
	basetypes.StringType
}

// String implements attr.Type.
func (t FiltersType) String() string { return "FiltersType" }

// ValueType implements attr.Type.
func (t FiltersType) ValueType(context.Context) attr.Value { return FiltersValue{} }

// Equal implements attr.Type.
func (t FiltersType) Equal(o attr.Type) bool {
	other, ok := o.(FiltersType)
	return ok && t.StringType.Equal(other.StringType)
}

// ValueFromString implements basetypes.StringTypable.
func (t FiltersType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return FiltersValue{StringValue: in}, nil
}

// ValueFromTerraform implements attr.Type.
func (t FiltersType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.StringType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	s, ok := v.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", v)
	}
	return FiltersValue{StringValue: s}, nil
}

// FiltersValue is a value of FiltersType.
type FiltersValue struct {
	basetypes.StringValue
}

// NewFiltersValue returns known filters holding the JSON text s.
func NewFiltersValue(s string) FiltersValue {
	return FiltersValue{StringValue: basetypes.NewStringValue(s)}
}

// NewFiltersRaw returns filters holding a string value as it is.
func NewFiltersRaw(v basetypes.StringValue) FiltersValue { return FiltersValue{StringValue: v} }

// NewFiltersNull returns null filters.
func NewFiltersNull() FiltersValue { return FiltersValue{StringValue: basetypes.NewStringNull()} }

// Type implements attr.Value.
func (v FiltersValue) Type(context.Context) attr.Type { return FiltersType{} }

// Equal implements attr.Value.
func (v FiltersValue) Equal(o attr.Value) bool {
	other, ok := o.(FiltersValue)
	return ok && v.StringValue.Equal(other.StringValue)
}

// StringSemanticEquals implements basetypes.StringValuableWithSemanticEquals:
// filters the service stores alike are equal, and the state keeps the
// configured text.
func (v FiltersValue) StringSemanticEquals(_ context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	other, ok := newValuable.(FiltersValue)
	if !ok {
		diags.AddError("Semantic equality check error",
			fmt.Sprintf("Expected a FiltersValue, got %T. This is a bug in the provider.", newValuable))
		return false, diags
	}
	return FiltersEqual(v.ValueString(), other.ValueString()), diags
}

// FiltersEqual reports whether the service stores a and b alike; filters it
// refuses are compared as JSON values. Null text and {} are alike.
func FiltersEqual(a, b string) bool {
	if a == b {
		return true
	}
	sa, okA := storedFilters(a)
	sb, okB := storedFilters(b)
	if !okA || !okB {
		return python.Equal(json.RawMessage(a), json.RawMessage(b))
	}
	return python.EqualValues(sa, sb)
}

// FiltersNone reports whether filters text filters nothing: null, or what
// the service stores as {}, with which it clears filters (it cannot store
// null once a config has filters).
func FiltersNone(s string) bool {
	stored, ok := storedFilters(s)
	return ok && len(stored) == 0
}

// FiltersNothing reports whether the value is null or known to filter
// nothing (FiltersNone).
func (v FiltersValue) FiltersNothing() bool {
	return v.IsNull() || !v.IsUnknown() && FiltersNone(v.ValueString())
}

// storedFilters is what the service stores for filters text (null as {});
// false when it would refuse them.
func storedFilters(s string) (map[string]any, bool) {
	if python.IsNull(json.RawMessage(s)) {
		return map[string]any{}, true
	}
	c := checkFilters(s)
	return c.stored, len(c.problems) == 0
}

// checkFilters decodes filters text and checks it as the service would.
func checkFilters(s string) filtersCheck {
	v, err := python.Decode(s)
	if err != nil {
		return filtersCheck{problems: []string{fmt.Sprintf("filters must be a JSON object (write it with jsonencode): %s.", err)}}
	}
	return serviceFilters(v)
}

// ValidateAttribute implements xattr.ValidateableAttribute: what the service
// would refuse is refused at plan time, keys it drops earn a warning.
func (v FiltersValue) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if v.IsNull() || v.IsUnknown() {
		return
	}
	c := checkFilters(v.ValueString())
	for _, p := range c.problems {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid filters", p)
	}
	if len(c.problems) == 0 && len(c.dropped) > 0 {
		resp.Diagnostics.AddAttributeWarning(req.Path, "Filters keys the service ignores",
			fmt.Sprintf("The service keeps only the top-level keys %s of filters, and only the keys %s of "+
				"each events or actions entry; it drops %s. The provider ignores them too when comparing, "+
				"so they cause no diff, but they have no effect.",
				strings.Join(filterKeys, ", "), strings.Join(filterEntryFields, ", "), strings.Join(c.dropped, ", ")))
	}
}

// jsonKind names the JSON type of a decoded value for error messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	default:
		return "a number"
	}
}
