package localapi

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// A hog function's create and update bodies, read as PostHog's
// HogFunctionSerializer reads them (posthog/api/hog_function.py, with the
// inputs and filters serializers of posthog/cdp/validation.py): the
// template's defaults first (to_internal_value), then the fields in the
// serializer's order, the first error answering, then validate().

// hogFunctionTypes are the types of PostHog's HogFunctionType.
var hogFunctionTypes = []string{"destination", "site_destination", "internal_destination", "source_webhook",
	"warehouse_source_webhook", "site_app", "transformation", "transformation_log"}

// javascriptTypes are the types whose code is TypeScript (PostHog's
// TYPES_WITH_JAVASCRIPT_SOURCE): their inputs and filters are transpiled,
// not compiled to bytecode.
var javascriptTypes = []string{"site_destination", "site_app"}

// Limits of the serializer.
const (
	maxHogCodeBytes           = 100 * 1024
	maxTransformationsPerTeam = 20
	// execution_order is a PositiveSmallIntegerField.
	maxExecutionOrder = 32767
)

// hogSent is what a body said of the fields whose changes PostHog acts on
// beyond storing them.
type hogSent struct {
	enabled, deleted *bool
	order            bool
}

// hogWrite is how a body is written to a hog function: w.update of one
// that exists, else a new one; tpl the template a new one is made from,
// or nil; defaults is PostHog's is_create, under which the template gives
// what the body leaves out (a migrator's function is written without it).
type hogWrite struct {
	tpl      *hogTemplate
	defaults bool
	update   bool
	// withoutNulls stores the inputs as validated (readInputs).
	withoutNulls bool
}

// applyHogBody applies a body to hf as w says.
func applyHogBody(b *body, obj map[string]any, hf *HogFunction, w hogWrite) (*hogSent, *apiError) {
	tpl, create := w.tpl, !w.update
	sent := &hogSent{}
	field := func(name string) (any, bool) { return b.field(obj, name) }
	// to_internal_value: a create takes what it leaves out (or sends
	// empty) from its template.
	templated := func(name string) (any, bool) {
		v, ok := field(name)
		if w.defaults && tpl != nil && !python.TruthyValue(v) {
			return nil, false
		}
		return v, ok
	}
	if w.defaults && tpl != nil {
		code := tpl.Code
		hf.Name, hf.Description, hf.Hog, hf.InputsSchema, hf.IconURL = tpl.Name, tpl.Description, &code, tpl.InputsSchema, tpl.IconURL
	}
	if v, ok := field("type"); ok && v != nil {
		s, isText := v.(string)
		if !isText || !slices.Contains(hogFunctionTypes, s) {
			return nil, errValidation("invalid_choice", fmt.Sprintf("\"%s\" is not a valid choice.", pyStr(v)), "type")
		}
		if s == "warehouse_source_webhook" {
			return nil, errInvalid("Cannot create or modify warehouse source webhook functions via this API.", "type")
		}
		if w.update && s != hf.Type {
			return nil, errInvalid("Cannot modify the type of an existing function", "type")
		}
		hf.Type = s
	}
	if v, ok := templated("name"); ok {
		s, e := coerceText(b, v, "name", maxNameLen)
		if e != nil {
			return nil, e
		}
		hf.Name = deref(s)
	}
	if v, ok := templated("description"); ok {
		if v == nil {
			return nil, errNullField("description")
		}
		s, e := coerceText(b, v, "description", math.MaxInt)
		if e != nil {
			return nil, e
		}
		hf.Description = deref(s)
	}
	for _, f := range []struct {
		name string
		dst  **bool
	}{{"enabled", &sent.enabled}, {"deleted", &sent.deleted}} {
		if v, ok := field(f.name); ok {
			on, e := coerceBool(v, f.name)
			if e != nil {
				return nil, e
			}
			*f.dst = &on
		}
	}
	if sent.enabled != nil {
		hf.Enabled = *sent.enabled
	}
	if sent.deleted != nil {
		hf.Deleted = *sent.deleted
	}
	if v, ok := templated("hog"); ok {
		if v == nil {
			return nil, errNullField("hog")
		}
		s, e := coerceText(b, v, "hog", math.MaxInt)
		if e != nil {
			return nil, e
		}
		if *s == "" {
			return nil, errValidation("blank", "This field may not be blank.", "hog")
		}
		hf.Hog = s
	}
	if v, ok := templated("inputs_schema"); ok {
		schema, e := readInputsSchema(v, w.defaults)
		if e != nil {
			return nil, e
		}
		hf.InputsSchema = schema
	} else if hf.InputsSchema == nil && hf.template() == nil {
		hf.InputsSchema = json.RawMessage(`[]`)
	}
	inputs, ok := field("inputs")
	switch {
	case create && (!ok || w.defaults && !python.TruthyValue(inputs)):
		inputs = map[string]any{}
	case !ok:
		// An update validates the inputs it has against the schema again.
		var err error
		if inputs, err = decodeJSON(hf.Inputs); err != nil {
			inputs = map[string]any{}
		}
	}
	raw, e := readInputs(inputs, hf.schemaItems(), hf.Inputs, hf.Type, w.withoutNulls)
	if e != nil {
		return nil, e
	}
	hf.Inputs = raw
	if v, ok := templated("icon_url"); ok {
		s, e := coerceText(b, v, "icon_url", math.MaxInt)
		if e != nil {
			return nil, e
		}
		hf.IconURL = s
	}
	// Filters are validated on every write: an update that leaves them out
	// validates (and compiles) the stored ones again.
	filters, ok := field("filters")
	if !ok && !create {
		var err error
		if filters, err = decodeJSON(hf.Filters); err != nil {
			filters = nil
		}
	}
	f, e := readHogFilters(filters, create, hf.Type)
	if e != nil {
		return nil, e
	}
	hf.Filters = f
	if v, ok := field("execution_order"); ok {
		sent.order = true
		n, e := readExecutionOrder(v)
		if e != nil {
			return nil, e
		}
		hf.ExecutionOrder = n
	}
	// validate()
	if hf.Hog != nil && len(*hf.Hog) > maxHogCodeBytes {
		return nil, errInvalid(fmt.Sprintf("HOG code exceeds maximum size of %dKB. Please simplify your code or contact support if you need this limit increased.",
			maxHogCodeBytes/1024), "hog")
	}
	if create && hf.Hog == nil {
		return nil, errInvalid("Required.", "hog")
	}
	return sent, nil
}

// readExecutionOrder reads execution_order: null, or an integer from 0 to
// 32767 as DRF's IntegerField reads one.
func readExecutionOrder(v any) (*int64, *apiError) {
	const attr = "execution_order"
	var n *big.Int
	switch x := v.(type) {
	case nil:
		return nil, nil
	case json.Number:
		var ok bool
		if n, ok = python.IntegerField(pyNumber(x).Str()); !ok {
			return nil, errInvalid(msgNotInteger, attr)
		}
	case string:
		var ok bool
		if n, ok = python.IntegerField(x); !ok || python.Len(x) > maxIntegerText {
			return nil, errInvalid(msgNotInteger, attr)
		}
	default:
		return nil, errInvalid(msgNotInteger, attr)
	}
	switch {
	case n.Sign() < 0:
		return nil, errValidation("min_value", "Ensure this value is greater than or equal to 0.", attr)
	case n.Cmp(big.NewInt(maxExecutionOrder)) > 0:
		return nil, errValidation("max_value", fmt.Sprintf("Ensure this value is less than or equal to %d.", maxExecutionOrder), attr)
	}
	order := n.Int64()
	return &order, nil
}

// readInputsSchema reads inputs_schema: a list of entries, each an object
// with a key and a type (text), and required and secret booleans when it
// has them. Entries are kept as sent, those booleans as booleans. Errors
// name the field, not the entry (*choice*).
func readInputsSchema(v any, create bool) (json.RawMessage, *apiError) {
	const attr = "inputs_schema"
	if v == nil {
		if create {
			return json.RawMessage(`[]`), nil
		}
		return nil, errNullField(attr)
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errValidation("not_a_list", fmt.Sprintf("Expected a list of items but got type %q.", pyType(v)), attr)
	}
	for _, item := range list {
		entry, ok := item.(map[string]any)
		if !ok {
			return nil, errInvalid(fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", pyType(item)), attr)
		}
		for _, name := range []string{"key", "type"} {
			switch s, isText := entry[name].(string); {
			case entry[name] == nil:
				return nil, errRequired(attr)
			case !isText || s == "":
				return nil, errInvalid(msgNotString, attr)
			}
		}
		for _, name := range []string{"required", "secret"} {
			if x, ok := entry[name]; ok {
				on, e := coerceBool(x, attr)
				if e != nil {
					return nil, e
				}
				entry[name] = on
			}
		}
	}
	raw, err := marshalJSON(list)
	if err != nil {
		return nil, errServer()
	}
	return raw, nil
}

// maskedSecret is the mask PostHog's UI sends back for a secret input it
// shows as set: it means "keep the stored secret".
const maskedSecret = "********"

// readInputs validates inputs against schema as PostHog's InputsSerializer
// does, for a function of type funcType: only the schema's keys are kept,
// each as {"value", "templating" when sent or the schema says so,
// "bytecode" (templateBytecode) for a value to compile, "order"}; a secret
// input sent as {}, {"secret": true} or the mask keeps the value stored
// (none stored is an error for the mask); a required input left out takes
// its default, and without one (or with a default of "") is an error;
// values of the string, number, boolean and dictionary types are checked.
// An input without a value is not validated one. The first error, in the
// schema's order, answers.
//
// What is stored is what the model's save makes of them
// (move_secret_inputs): every key of the schema in its order, a
// non-secret one without a value as null, a secret one without a value
// left out. withoutNulls keeps the validated inputs as they are, as the
// bulk migration stores them (bulk_create does not call save()).
func readInputs(v any, schema []inputSchema, stored json.RawMessage, funcType string, withoutNulls bool) (json.RawMessage, *apiError) {
	if v == nil {
		return nil, errNullField("inputs")
	}
	data, ok := v.(map[string]any)
	if !ok {
		return nil, errValidation("not_a_dict", fmt.Sprintf("Expected a dictionary of items but got type %q.", pyType(v)), "inputs")
	}
	var previous map[string]json.RawMessage
	_ = json.Unmarshal(stored, &previous)
	out := orderedObject{}
	order := 0
	for _, s := range schema {
		attr := "inputs__" + s.Key
		item := map[string]any{}
		if raw := data[s.Key]; python.TruthyValue(raw) {
			m, ok := raw.(map[string]any)
			if !ok {
				return nil, errInvalid(fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", pyType(raw)), attr+"__non_field_errors")
			}
			item = m
		}
		if s.Secret {
			sentValue, hasValue := item["value"]
			masked := python.TruthyValue(item["secret"]) && (!hasValue || sentValue == maskedSecret)
			if masked || len(item) == 0 {
				if prev := previous[s.Key]; nonEmptyObject(prev) {
					decoded, err := decodeJSON(prev)
					if m, ok := decoded.(map[string]any); err == nil && ok {
						item = m
					}
				} else if masked {
					return nil, errInvalid("No value is saved for this secret input. Enter the value again.", attr)
				}
			}
		}
		if len(item) == 0 && s.Required && s.Default != nil && string(s.Default) != "null" {
			def, err := decodeJSON(s.Default)
			if err == nil {
				item = map[string]any{"value": def}
			}
		}
		templating, hasTemplating := item["templating"]
		if t := schemaTemplating(s); t != "" {
			templating, hasTemplating = t, true // the schema's wins
		}
		val, hasValue := item["value"]
		if s.Required && (val == nil || val == "") {
			return nil, errInvalid(msgRequired, attr)
		}
		entry := orderedObject{{"value", val}}
		if hasTemplating {
			if templating != "hog" && templating != "liquid" {
				return nil, errValidation("invalid_choice", fmt.Sprintf("\"%s\" is not a valid choice.", pyStr(templating)), attr+"__templating")
			}
			entry = append(entry, member{"templating", templating})
		}
		if msg := inputTypeError(s.Type, val); msg != "" {
			return nil, errInvalid(msg, attr)
		}
		if compiled(s, val, templating, funcType) {
			entry = append(entry, member{"bytecode", templateBytecode(val)})
		}
		switch {
		case hasValue:
			out = append(out, member{s.Key, append(entry, member{"order", order})})
			order++
		case !s.Secret && !withoutNulls:
			out = append(out, member{s.Key, nil})
		}
	}
	raw, err := marshalJSON(out)
	if err != nil {
		return nil, errServer()
	}
	return raw, nil
}

// schemaTemplating is what a schema entry's templating gives its input:
// "hog" for true, the text of "hog" or "liquid", "" for false or none
// (PostHog copies it into the input; only true and text do).
func schemaTemplating(s inputSchema) string {
	var v any
	if len(s.Templating) == 0 || json.Unmarshal(s.Templating, &v) != nil {
		return ""
	}
	switch t := v.(type) {
	case bool:
		if t {
			return "hog"
		}
	case string:
		return t
	}
	return ""
}

// compiledInputTypes are the input types whose values PostHog compiles.
var compiledInputTypes = []string{"string", "boolean", "dictionary", "json", "email", "native_email", "posthog_ticket_tags",
	"customer_analytics_account_properties", "customer_analytics_account_relationships"}

// compiled reports whether PostHog compiles the input's value to bytecode:
// a value Python finds true, of a compiled type, whose schema does not turn
// templating off, not templated with liquid, of a function whose code is
// Hog (TypeScript ones are transpiled instead, which the local API does
// not do: *choice*).
func compiled(s inputSchema, val, templating any, funcType string) bool {
	off := string(s.Templating) == "false"
	return python.TruthyValue(val) && !off && templating != "liquid" && slices.Contains(compiledInputTypes, s.Type) &&
		!slices.Contains(javascriptTypes, funcType)
}

// templateBytecode stands in for PostHog's generate_template_bytecode:
// objects and lists are compiled member by member, other values kept, and
// text becomes the bytecode of a constant string, ["_H", 1, 32, text]
// (what PostHog makes of text without placeholders; the local API parses
// no templates, *choice*).
func templateBytecode(v any) any {
	switch x := v.(type) {
	case string:
		return []any{"_H", 1, 32, x}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			out[k] = templateBytecode(item)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = templateBytecode(item)
		}
		return out
	}
	return v
}

// inputTypeError is PostHog's check of an input's value by its type ("" when
// it passes); a value Python finds false is not checked.
func inputTypeError(typ string, v any) string {
	if !python.TruthyValue(v) {
		return ""
	}
	switch typ {
	case "string":
		if _, ok := v.(string); !ok {
			return "Value must be a string."
		}
	case "number":
		switch v.(type) {
		case json.Number, bool: // Python's bool is an int
		default:
			return "Value must be a number."
		}
	case "boolean":
		switch v.(type) {
		case bool, string: // a string is a template
		default:
			return "Value must be a boolean or a template string."
		}
	case "dictionary":
		if _, ok := v.(map[string]any); !ok {
			return "Value must be a dictionary."
		}
	}
	return ""
}

// filterSources are the choices of filters.source.
var filterSources = []string{"events", "person-updates", "data-warehouse-table", "data-warehouse-view"}

// readHogFilters reads filters as HogFunctionFiltersSerializer does: null
// or nothing is {}; only its fields are kept, in its order; source is
// "events" unless sent, on a create (DRF applies defaults to full writes
// only); lists of objects for actions, events, data_warehouse and
// properties; the entries a source cannot use are dropped. Then, for a
// function of a type whose code is Hog, the filters' bytecode
// (filtersBytecode) is added last, as PostHog's compile_filters_bytecode
// does; a sent one is replaced. TypeScript types get neither bytecode nor
// PostHog's transpiled code (*choice*).
func readHogFilters(v any, create bool, funcType string) (json.RawMessage, *apiError) {
	if !python.TruthyValue(v) {
		v = map[string]any{}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errInvalid(fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", pyType(v)), "filters__non_field_errors")
	}
	out := orderedObject{}
	source, hasSource := m["source"]
	if !hasSource && create {
		source, hasSource = "events", true
	}
	if hasSource {
		s, isText := source.(string)
		if !isText || !slices.Contains(filterSources, s) {
			return nil, errValidation("invalid_choice", fmt.Sprintf("\"%s\" is not a valid choice.", pyStr(source)), "filters__source")
		}
		out = append(out, member{"source", s})
	}
	dropped := map[string][]string{
		"events":               {"data_warehouse"},
		"person-updates":       {"events", "actions", "data_warehouse"},
		"data-warehouse-table": {"events", "actions"},
		"data-warehouse-view":  {"events", "actions"},
	}[pyStr(source)]
	for _, name := range []string{"actions", "events", "data_warehouse", "properties"} {
		list, ok := m[name]
		if !ok {
			continue
		}
		attr := "filters__" + name
		entries, isList := list.([]any)
		if !isList {
			if list == nil {
				return nil, errNullField(attr)
			}
			return nil, errValidation("not_a_list", fmt.Sprintf("Expected a list of items but got type %q.", pyType(list)), attr)
		}
		for _, e := range entries {
			if _, ok := e.(map[string]any); !ok {
				return nil, errValidation("not_a_dict", fmt.Sprintf("Expected a dictionary of items but got type %q.", pyType(e)), attr)
			}
		}
		if !slices.Contains(dropped, name) {
			out = append(out, member{name, entries})
		}
	}
	if x, ok := m["filter_test_accounts"]; ok {
		on, e := coerceBool(x, "filters__filter_test_accounts")
		if e != nil {
			return nil, e
		}
		out = append(out, member{"filter_test_accounts", on})
	}
	if !slices.Contains(javascriptTypes, funcType) {
		bytecode, err := filtersBytecode(out)
		if err != nil {
			return nil, errServer()
		}
		out = append(out, member{"bytecode", bytecode})
	}
	raw, err := marshalJSON(out)
	if err != nil {
		return nil, errServer()
	}
	return raw, nil
}

// matchAll is the bytecode of the constant true: what PostHog compiles
// filters that narrow nothing into (no events, actions nor properties; the
// local projects have no test account filters).
var matchAll = []any{"_H", 1, 29}

// filtersBytecode stands in for the bytecode PostHog compiles filters
// into: matchAll for filters that narrow nothing, exactly as PostHog's;
// for others the bytecode of a constant string, the filters' JSON, stable
// for the same filters (the local API compiles no Hog, *choice*).
func filtersBytecode(filters orderedObject) (any, error) {
	narrows := false
	for _, m := range filters {
		if list, ok := m.val.([]any); ok && len(list) > 0 && m.key != "data_warehouse" {
			narrows = true
		}
	}
	if !narrows {
		return matchAll, nil
	}
	text, err := marshalJSON(filters)
	if err != nil {
		return nil, err
	}
	return []any{"_H", 1, 32, string(text)}, nil
}
