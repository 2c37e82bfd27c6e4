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

// hogFunctionTypes are the types PostHog's HogFunctionType offers, as the
// official provider documents them.
var hogFunctionTypes = []string{"destination", "site_destination", "internal_destination", "source_webhook", "site_app", "transformation"}

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

// applyHogBody applies a create (tpl the template it names, or nil) or
// update body to hf. cat resolves the template of an update.
func applyHogBody(b *body, obj map[string]any, hf *HogFunction, cat *catalog, tpl *catalogEntry, create bool) (*hogSent, *apiError) {
	sent := &hogSent{}
	field := func(name string) (any, bool) { return b.field(obj, name) }
	// to_internal_value: a create takes what it leaves out (or sends
	// empty) from its template.
	templated := func(name string) (any, bool) {
		v, ok := field(name)
		if create && tpl != nil && !python.TruthyValue(v) {
			return nil, false
		}
		return v, ok
	}
	if create && tpl != nil {
		hf.Name, hf.Description = deref(tpl.Name), deref(tpl.Description)
	}
	if v, ok := field("type"); ok && v != nil {
		s, isText := v.(string)
		if !isText || !slices.Contains(hogFunctionTypes, s) {
			return nil, errValidation("invalid_choice", fmt.Sprintf("\"%s\" is not a valid choice.", pyStr(v)), "type")
		}
		if !create && s != hf.Type {
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
		schema, e := readInputsSchema(v, create)
		if e != nil {
			return nil, e
		}
		hf.InputsSchema = schema
	} else if create && tpl == nil {
		hf.InputsSchema = json.RawMessage(`[]`)
	}
	inputs, ok := field("inputs")
	switch {
	case create && !python.TruthyValue(inputs):
		inputs = map[string]any{}
	case !ok:
		// An update validates the inputs it has against the schema again.
		var err error
		if inputs, err = decodeJSON(hf.Inputs); err != nil {
			inputs = map[string]any{}
		}
	}
	raw, e := readInputs(inputs, hf.schemaItems(cat), hf.Inputs)
	if e != nil {
		return nil, e
	}
	hf.Inputs = raw
	if v, ok := field("filters"); ok || create {
		f, e := readHogFilters(v, create)
		if e != nil {
			return nil, e
		}
		hf.Filters = f
	}
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
	if create && hf.Hog == nil && tpl == nil {
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

// readInputs validates inputs against schema as PostHog's InputsSerializer
// does: only the schema's keys are kept, in its order, each as {"value",
// "templating" when sent, "order"}; a secret input sent as {} or {"secret":
// true} keeps the value stored (none stored is an error for the mask); a
// required input left out takes its default, and without one is an
// error; values of the string, number, boolean and dictionary types are
// checked. An input without a value is left out. The first error, in the
// schema's order, answers.
func readInputs(v any, schema []inputSchema, stored json.RawMessage) (json.RawMessage, *apiError) {
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
			_, hasValue := item["value"]
			masked := python.TruthyValue(item["secret"]) && !hasValue
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
		val, hasValue := item["value"]
		if s.Required && (val == nil || val == "") {
			return nil, errInvalid(msgRequired, attr)
		}
		entry := orderedObject{{"value", val}}
		if t, ok := item["templating"]; ok {
			if t != "hog" && t != "liquid" {
				return nil, errValidation("invalid_choice", fmt.Sprintf("\"%s\" is not a valid choice.", pyStr(t)), attr+"__templating")
			}
			entry = append(entry, member{"templating", t})
		}
		if msg := inputTypeError(s.Type, val); msg != "" {
			return nil, errInvalid(msg, attr)
		}
		if hasValue {
			out = append(out, member{s.Key, append(entry, member{"order", len(out)})})
		}
	}
	raw, err := marshalJSON(out)
	if err != nil {
		return nil, errServer()
	}
	return raw, nil
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
// properties; the entries a source cannot use are dropped. The bytecode
// PostHog compiles the filters into is not made (*choice*: the local API
// compiles no Hog; clients leave it out of what they keep).
func readHogFilters(v any, create bool) (json.RawMessage, *apiError) {
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
	raw, err := marshalJSON(out)
	if err != nil {
		return nil, errServer()
	}
	return raw, nil
}
