package configresource

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
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
	c := serviceFilters(python.Load(v.ValueString()))
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

// The service's FiltersSerializer (PostHog's posthog/api/shared.py), field
// by field, so that a plan refuses what the service refuses and compares
// what it rewrites as it stores it.

// filterLists are the keys holding lists of entries, and the types an entry
// may have (either in either list).
var filterLists = []string{"events", "actions"}

// filterKeys are the top-level keys the service keeps, in its order.
var filterKeys = append(slices.Clone(filterLists), "filter_test_accounts")

// filterEntryFields are the keys of an entry the service keeps, in its order.
var filterEntryFields = []string{"type", "id", "name", "order", "properties"}

// maxIntegerText is DRF IntegerField's max_string_length.
const maxIntegerText = 1000

// booleanWords are the strings DRF's BooleanField reads as true or false.
var booleanWords = map[string]bool{
	"t": true, "T": true, "y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"true": true, "True": true, "TRUE": true, "on": true, "On": true, "ON": true, "1": true,
	"f": false, "F": false, "n": false, "N": false, "no": false, "No": false, "NO": false,
	"false": false, "False": false, "FALSE": false, "off": false, "Off": false, "OFF": false, "0": false,
}

// filtersCheck is what the service makes of filters: what it stores, what
// it refuses (each problem naming its place) and the keys it drops (sorted).
type filtersCheck struct {
	stored   map[string]any
	problems []string
	dropped  []string
}

// storedFilters is what the service stores for filters text (null as {});
// false when it would refuse them.
func storedFilters(s string) (map[string]any, bool) {
	v, err := python.Load(s)
	if v == nil && (err == nil || errors.Is(err, io.EOF)) { // null, or no text
		return map[string]any{}, true
	}
	c := serviceFilters(v, err)
	return c.stored, len(c.problems) == 0
}

// serviceFilters applies the serializer to filters as python.Load decodes them.
func serviceFilters(v any, err error) filtersCheck {
	var c filtersCheck
	obj, ok := v.(map[string]any)
	switch {
	case err != nil:
		c.fail("filters must be a JSON object (write it with jsonencode): %s.", err)
		return c
	case !ok:
		c.fail("filters must be a JSON object (write it with jsonencode), got %s.", jsonKind(v))
		return c
	}
	c.stored = map[string]any{}
	for k := range obj {
		if !slices.Contains(filterKeys, k) {
			c.dropped = append(c.dropped, k)
		}
	}
	for _, k := range filterLists {
		if raw, present := obj[k]; present {
			if entries, ok := c.entries(raw, "filters."+k); ok {
				c.stored[k] = entries
			}
		}
	}
	if raw, present := obj["filter_test_accounts"]; present {
		if b, ok := booleanField(raw); ok {
			c.stored["filter_test_accounts"] = b
		} else {
			c.fail("filters.filter_test_accounts must be true or false, got %s.", jsonKind(raw))
		}
	}
	slices.Sort(c.dropped)
	return c
}

func (c *filtersCheck) fail(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// entries checks one events or actions list, up to its first bad entry.
func (c *filtersCheck) entries(raw any, at string) ([]any, bool) {
	list, ok := raw.([]any)
	if !ok {
		c.fail("%s must be a list, got %s.", at, jsonKind(raw))
		return nil, false
	}
	out := make([]any, 0, len(list))
	for i, e := range list {
		entry, ok := c.entry(e, fmt.Sprintf("%s[%d]", at, i))
		if !ok {
			return nil, false
		}
		out = append(out, entry)
	}
	return out, true
}

// entry checks one entry and returns what the service stores of it: type,
// id and name as trimmed text, order as an integer, properties ([] when
// missing); every other key dropped.
func (c *filtersCheck) entry(e any, at string) (map[string]any, bool) {
	m, ok := e.(map[string]any)
	if !ok {
		c.fail("%s must be an object, got %s.", at, jsonKind(e))
		return nil, false
	}
	before := len(c.problems)
	for k := range m {
		if !slices.Contains(filterEntryFields, k) {
			c.dropped = append(c.dropped, strings.TrimPrefix(at, "filters.")+"."+k)
		}
	}
	out := map[string]any{}
	switch t, isString := m["type"].(string); {
	case m["type"] == nil:
		c.fail(`%s needs a "type": "events" or "actions".`, at)
	case !isString:
		c.fail(`%s.type must be "events" or "actions", got %s.`, at, jsonKind(m["type"]))
	case !slices.Contains(filterLists, t):
		c.fail(`%s.type must be "events" or "actions", got %q.`, at, t)
	default:
		out["type"] = t
	}
	for _, k := range []string{"id", "name"} {
		if v, present := m[k]; present {
			if s, ok := c.text(v, at+"."+k, k == "name"); ok {
				out[k] = s
			}
		}
	}
	if order, present := m["order"]; present {
		if n, ok := c.integer(order, at+".order"); ok {
			out["order"] = n
		}
	}
	out["properties"] = c.properties(m, at+".properties")
	return out, len(c.problems) == before
}

// text reads an id or name as DRF's CharField does: a string or a number (as
// str() writes it), stripped, not blank; null only where nullable (a name),
// and then kept as null.
func (c *filtersCheck) text(v any, at string, nullable bool) (any, bool) {
	s, isString := v.(string)
	if n, isNumber := v.(python.Number); isNumber {
		s, isString = n.Str(), true
	}
	switch s = python.Strip(s); {
	case v == nil && nullable:
		return nil, true
	case !isString:
		c.fail("%s must be a string, got %s.", at, jsonKind(v))
	case s == "":
		c.fail("%s must not be blank: the service refuses empty or whitespace-only text.", at)
	case strings.ContainsRune(s, 0):
		c.fail("%s must not hold a null character (\\u0000): the service refuses it.", at)
	default:
		return s, true
	}
	return nil, false
}

// integer reads an order as DRF's IntegerField does: a number or string
// whose text is an integer ("2", 2.0, "2.0").
func (c *filtersCheck) integer(v any, at string) (python.Number, bool) {
	text, _ := v.(string)
	if python.Len(text) > maxIntegerText {
		c.fail("%s must be an integer: the service reads no text longer than %d characters.", at, maxIntegerText)
		return python.Number{}, false
	}
	if n, isNumber := v.(python.Number); isNumber {
		text = n.Str()
	}
	if n, ok := python.IntegerField(text); ok {
		return python.Number{Int: n}, true
	}
	c.fail("%s must be an integer, got %s.", at, describe(v))
	return python.Number{}, false
}

// properties reads an entry's properties: a list of objects, [] when left
// out, kept as they are, except that a number past a double's range, which
// the service cannot store, is refused.
func (c *filtersCheck) properties(m map[string]any, at string) []any {
	raw, present := m["properties"]
	if !present {
		return []any{}
	}
	list, ok := raw.([]any)
	if !ok {
		c.fail("%s must be a list of objects, got %s.", at, jsonKind(raw))
		return nil
	}
	for i, p := range list {
		if _, ok := p.(map[string]any); !ok {
			c.fail("%s[%d] must be an object, got %s.", at, i, jsonKind(p))
		} else if where, found := python.InfiniteNumber(p); found {
			c.fail("%s[%d]%s is a number past a double's range (about 1.8e308), which the service cannot store.", at, i, where)
		}
	}
	return list
}

// booleanField reads filter_test_accounts as DRF's BooleanField does: true,
// false, the words it knows, and the numbers 1 and 0.
func booleanField(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		b, ok := booleanWords[x]
		return b, ok
	case python.Number:
		one := x.Equal(python.Number{Float: 1})
		return one, one || x.Equal(python.Number{Float: 0})
	}
	return false, false
}

// describe names a value for an error: a string or number as written, any
// other value by its JSON kind.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case python.Number:
		return x.Lit
	}
	return jsonKind(v)
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
