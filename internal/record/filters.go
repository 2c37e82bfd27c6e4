package record

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// filterKeys are the top-level keys of filters the service keeps; it drops
// every other one.
var filterKeys = []string{"events", "actions", "filter_test_accounts"}

// filterEntryKeys are the keys whose entries the service completes with
// "properties": [] and which need a "type".
var filterEntryKeys = []string{"events", "actions"}

// filterEntryTypes are the types the service accepts for such an entry
// (either one in either list).
var filterEntryTypes = []string{"events", "actions"}

var (
	_ basetypes.StringTypable                    = FiltersType{}
	_ basetypes.StringValuableWithSemanticEquals = FiltersValue{}
	_ xattr.ValidateableAttribute                = FiltersValue{}
)

// FiltersType is the type of the filters attribute: a JSON object string
// compared the way the service normalises it, so that what it reads back
// never shows as a diff of what was configured.
type FiltersType struct {
	basetypes.StringType
}

// String implements attr.Type.
func (t FiltersType) String() string { return "record.FiltersType" }

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
// two filters are equal when the service would store the same thing for
// both. Terraform then keeps the configured text in state.
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

// FiltersEqual reports whether a and b are the same filters once normalised
// the way the service does it, compared as JSON values (jsonvalue). Text
// that is not JSON is equal only to itself.
func FiltersEqual(a, b string) bool {
	if a == b {
		return true
	}
	na, errA := normalizeFilters(a)
	nb, errB := normalizeFilters(b)
	if errA != nil || errB != nil {
		return false
	}
	return jsonvalue.EqualValues(na, nb)
}

// normalizeFilters decodes filters and applies the service's normalisation:
// unknown top-level keys dropped, "properties": [] added to each
// events/actions entry that lacks it (or has null).
func normalizeFilters(s string) (any, error) {
	v, err := jsonvalue.Decode(s)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return v, nil
	}
	out := make(map[string]any, len(filterKeys))
	for _, k := range filterKeys {
		if x, ok := obj[k]; ok {
			out[k] = x
		}
	}
	for _, k := range filterEntryKeys {
		entries, ok := out[k].([]any)
		if !ok {
			continue
		}
		for _, e := range entries {
			if m, ok := e.(map[string]any); ok {
				if props, has := m["properties"]; !has || props == nil {
					m["properties"] = []any{}
				}
			}
		}
	}
	return out, nil
}

// ValidateAttribute implements xattr.ValidateableAttribute: filters must be
// a JSON object whose events/actions entries each have a "type" that is
// "events" or "actions" (the service answers 400 to anything else). Top-level
// keys the service drops earn a warning.
func (v FiltersValue) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if v.IsNull() || v.IsUnknown() {
		return
	}
	problems, dropped := checkFilters(v.ValueString())
	for _, p := range problems {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid filters", p)
	}
	if len(problems) == 0 && len(dropped) > 0 {
		resp.Diagnostics.AddAttributeWarning(req.Path, "Filters keys the service ignores",
			fmt.Sprintf("The service keeps only the top-level keys %s of filters and drops %s. "+
				"The provider ignores them too when comparing, so they cause no diff, but they have no effect.",
				strings.Join(filterKeys, ", "), strings.Join(dropped, ", ")))
	}
}

// checkFilters returns what is wrong with filters text, and the top-level
// keys the service would drop.
func checkFilters(s string) (problems, dropped []string) {
	v, err := jsonvalue.Decode(s)
	if err != nil {
		return []string{fmt.Sprintf("filters must be a JSON object (write it with jsonencode): %s.", err)}, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("filters must be a JSON object (write it with jsonencode), got %s.", jsonKind(v))}, nil
	}
	for k := range obj {
		if !slices.Contains(filterKeys, k) {
			dropped = append(dropped, k)
		}
	}
	slices.Sort(dropped)
	if raw, present := obj["filter_test_accounts"]; present {
		if _, ok := raw.(bool); !ok {
			problems = append(problems, fmt.Sprintf("filters.filter_test_accounts must be true or false, got %s.", jsonKind(raw)))
		}
	}
	for _, k := range filterEntryKeys {
		raw, present := obj[k]
		if !present {
			continue
		}
		entries, ok := raw.([]any)
		if !ok {
			problems = append(problems, fmt.Sprintf("filters.%s must be a list, got %s.", k, jsonKind(raw)))
			continue
		}
		for i, e := range entries {
			m, ok := e.(map[string]any)
			if !ok {
				problems = append(problems, fmt.Sprintf("filters.%s[%d] must be an object, got %s.", k, i, jsonKind(e)))
				continue
			}
			switch t, ok := m["type"].(string); {
			case !ok && m["type"] != nil:
				problems = append(problems, fmt.Sprintf(`filters.%s[%d].type must be "events" or "actions", got %s.`, k, i, jsonKind(m["type"])))
			case !ok || t == "":
				problems = append(problems, fmt.Sprintf(`filters.%s[%d] needs a "type": "events" or "actions".`, k, i))
			case !slices.Contains(filterEntryTypes, t):
				problems = append(problems, fmt.Sprintf(`filters.%s[%d].type must be "events" or "actions", got %q.`, k, i, t))
			}
			if props, ok := m["properties"]; ok && props != nil {
				if _, ok := props.([]any); !ok {
					problems = append(problems, fmt.Sprintf("filters.%s[%d].properties must be a list, got %s.", k, i, jsonKind(props)))
				}
			}
		}
	}
	return problems, dropped
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
