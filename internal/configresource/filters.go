package configresource

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// The filters: a JSON object that only the seed's version of the service
// (June to mid-August 2024) stores, as its filters serializer rewrites it.

var filtersPath = path.Root("filters")

func filtersAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		CustomType: FiltersType{},
		Optional:   true,
		// Computed so that the plan may keep the state's text for the
		// same filters written differently (planFilters).
		Computed: true,
		MarkdownDescription: "Which events the config applies to, a JSON object (write it with `jsonencode`) " +
			"with `events`, `actions` and `filter_test_accounts`. PostHog has had none since August 2024: refused there.",
	}
}

var (
	_ basetypes.StringTypable                    = FiltersType{}
	_ basetypes.StringValuableWithSemanticEquals = FiltersValue{}
	_ xattr.ValidateableAttribute                = FiltersValue{}
)

// FiltersType is the filters attribute's type: JSON object text compared
// as the service normalises it, so that what it reads back is no diff.
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
	s, _ := v.(basetypes.StringValue) // all that StringType makes
	return FiltersValue{StringValue: s}, err
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
// filters the service stores alike are equal, and the state keeps the
// configured text.
func (v FiltersValue) StringSemanticEquals(ctx context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	other, diags := newValuable.ToStringValue(ctx)
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

// planFilters plans filters: left out, null unless the state's filter nothing.
func planFilters(configured types.String, proposed, state FiltersValue) FiltersValue {
	switch {
	case configured.IsUnknown():
		return proposed
	case configured.IsNull() && state.FiltersNothing():
		return state
	case configured.IsNull():
		return NewFiltersNull()
	case framework.IsSet(state) && FiltersEqual(configured.ValueString(), state.ValueString()):
		return state
	default:
		return NewFiltersValue(configured.ValueString())
	}
}

// filtersUpdate is the filters to send, if any: {} for filters removed (the
// service refuses null).
func filtersUpdate(plan, state FiltersValue) client.Opt[json.RawMessage] {
	switch {
	case plan.FiltersNothing() && state.FiltersNothing():
	case plan.IsNull():
		return client.Some(json.RawMessage("{}"))
	case state.IsNull() || !FiltersEqual(plan.ValueString(), state.ValueString()):
		return client.Some(json.RawMessage(plan.ValueString()))
	}
	return client.Opt[json.RawMessage]{}
}

// filtersFromAPI renders the service's filters as compact JSON, null when
// they filter nothing. prior stays while the service stores it that way, as
// the framework's semantic equality would keep it anyway.
func filtersFromAPI(raw json.RawMessage, prior FiltersValue) FiltersValue {
	if framework.IsSet(prior) && FiltersEqual(prior.ValueString(), string(raw)) {
		return prior
	}
	if FiltersNone(string(raw)) {
		return NewFiltersNull()
	}
	return NewFiltersValue(python.Compact(raw))
}

// planDroppedFilters refuses at plan time configured filters the service
// drops: its records came without them in this operation, or do at a look
// at the project's first record (Client.Learn) when nothing was read yet
// and the apply would send them (a create, or filters the state has not).
func (r *configResource) planDroppedFilters(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse,
	filters, prior FiltersValue,
) {
	meta := r.Meta()
	if meta == nil || req.Plan.Raw.IsNull() || resp.Plan.Raw.Equal(req.State.Raw) || !framework.IsSet(filters) || filters.FiltersNothing() {
		return
	}
	var project types.String
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, framework.ProjectIDPath, &project)...)
	if sent := !framework.IsSet(prior) || !FiltersEqual(filters.ValueString(), prior.ValueString()); sent && framework.IsSet(project) {
		meta.Client.Learn(ctx, project.ValueString(), r.kind.Collection)
	}
	if meta.Client.DropsFilters() {
		r.addDroppedFilters(&resp.Diagnostics, "")
	}
}

// checkDroppedFilters refuses at apply filters the service's answer left out.
func (r *configResource) checkDroppedFilters(planned FiltersValue, rec *client.Record, diags *diag.Diagnostics) {
	if framework.IsSet(planned) && !planned.FiltersNothing() && rec.FiltersOmitted() {
		r.addDroppedFilters(diags, " The other changes were applied.")
	}
}

func (r *configResource) addDroppedFilters(diags *diag.Diagnostics, applied string) {
	diags.AddAttributeError(filtersPath, "The service ignores filters", fmt.Sprintf(
		"The service answers %ss without a filters field: it no longer has filters (%s; only its version of "+
			"June to mid-August 2024 had them) and ignores filters sent to it, so this value can never be applied.%s "+
			"Remove filters from this resource's configuration. Hog functions have filters of their own: see %s.",
		r.kind.Noun, client.FiltersGoneSince, applied, client.MovingGuide))
}
