package localapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// The service validates filters with its own serializers (PostHog's
// posthog/api/shared.py), called from the config serializer's
// validate_filters as a serializer of their own:
//
//	class FilterBaseSerializer(serializers.Serializer):
//	    type = serializers.ChoiceField(choices=["events", "actions"])
//	    id = serializers.CharField(required=False)
//	    name = serializers.CharField(required=False, allow_null=True)
//	    order = serializers.IntegerField(required=False)
//	    properties = serializers.ListField(child=serializers.DictField(), default=[])
//	class FiltersSerializer(serializers.Serializer):
//	    events = FilterBaseSerializer(many=True, required=False)
//	    actions = FilterBaseSerializer(many=True, required=False)
//	    filter_test_accounts = serializers.BooleanField(required=False)
//
// and stores what they return. Errors are Django REST framework's, as
// PostHog's error handler (drf-exceptions-hog) reports the first of them;
// it does not descend into lists, so an error inside an entry is reported
// on the list (see entriesError).

// parseFilters validates the filters field and returns it as stored, or
// the service's refusal. v is the field as Python read it (decodePyJSON);
// in a form it is JSON text. stored is false when the value passed
// validation but PostgreSQL cannot store it (a property value holding an
// infinite number, a null character or a lone surrogate): the service
// then fails on save.
func parseFilters(v any, form bool) (raw json.RawMessage, stored bool, e *apiError) {
	if s, isStr := v.(string); form && isStr {
		// DRF's JSONField reads a form value with json.loads: the empty
		// text is not JSON, and NaN and Infinity are numbers.
		decoded, err := decodePyJSON([]byte(s), true)
		if err != nil {
			return nil, false, errInvalid("Value must be valid JSON.", "filters")
		}
		v = decoded
	}
	const nonField = "filters__non_field_errors"
	if v == nil {
		// A root serializer given no data (Serializer.errors).
		return nil, false, errValidation("null", "No data provided", nonField)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false, errInvalid("Invalid data. Expected a dictionary, but got "+pyType(v)+".", nonField)
	}
	out := orderedObject{}
	stored = true
	for _, key := range []string{"events", "actions"} {
		raw, present := obj[key]
		if !present {
			continue
		}
		entries, ok, e := filterEntries(raw, "filters__"+key)
		if e != nil {
			return nil, false, e
		}
		stored = stored && ok
		out = append(out, member{key, entries})
	}
	if raw, present := obj["filter_test_accounts"]; present {
		b, e := coerceBool(raw, "filters__filter_test_accounts")
		if e != nil {
			return nil, false, e
		}
		out = append(out, member{"filter_test_accounts", b})
	}
	buf, err := marshalJSON(out)
	if err != nil {
		return nil, false, errServer()
	}
	return buf, stored, nil
}

// filterEntries validates one events/actions list (a ListSerializer of
// FilterBaseSerializer).
func filterEntries(raw any, attr string) (entries []any, stored bool, e *apiError) {
	if raw == nil {
		return nil, false, errNullField(attr)
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, false, errValidation("not_a_list",
			fmt.Sprintf("Expected a list of items but got type %q.", pyType(raw)), attr+"__non_field_errors")
	}
	// DRF collects one error per entry ({} for a valid one) and fails when
	// any entry failed.
	var errs []*drfErrors
	failed := false
	stored = true
	entries = make([]any, len(list))
	for i, item := range list {
		entry, ok, entryErrs := filterEntry(item)
		errs = append(errs, entryErrs)
		if !entryErrs.empty() {
			failed = true
			continue
		}
		stored = stored && ok
		entries[i] = entry
	}
	if failed {
		return nil, false, entriesError(errs[0], attr)
	}
	return entries, stored, nil
}

// entriesError is drf-exceptions-hog's report of a list of entry errors
// (its _get_main_exception_and_code and _get_detail): attr the list; code
// Python's str() of the first entry's error codes (codes[0]: "{}" when
// the first entry is valid; the invalid->invalid_input renaming does not
// apply to this text); detail the first value of the first entry's error
// dict, as str(), or DRF's "A server error occurred." when that entry has
// none (valid, or not a dict: a null entry's error is a list).
func entriesError(first *drfErrors, attr string) *apiError {
	detail := "A server error occurred."
	if first.isDict() && len(first.vals) > 0 {
		detail = first.vals[0].str()
	}
	return errValidation(first.codes(), detail, attr)
}

// filterEntry validates one entry as FilterBaseSerializer does: the entry
// as returned (only its fields, in the serializer's order), whether it can
// be stored, and its errors (an empty dict when valid).
func filterEntry(item any) (entry orderedObject, stored bool, errs *drfErrors) {
	errs = &drfErrors{dict: true}
	if item == nil {
		// The child serializer's own null check: a list, not a dict.
		return nil, false, &drfErrors{list: []errorDetail{{msgNull, "null"}}}
	}
	m, ok := item.(map[string]any)
	if !ok {
		errs.add("'non_field_errors'", &drfErrors{list: []errorDetail{{
			"Invalid data. Expected a dictionary, but got " + pyType(item) + ".", "invalid"}}})
		return nil, false, errs
	}
	stored = true
	// type: a ChoiceField, required.
	if v, present := m["type"]; !present {
		errs.addList("type", errorDetail{msgRequired, "required"})
	} else if v == nil {
		errs.addList("type", errorDetail{msgNull, "null"})
	} else if s, isStr := v.(string); isStr && (s == "events" || s == "actions") {
		entry = append(entry, member{"type", s})
	} else {
		errs.addList("type", errorDetail{`"` + pyStr(v) + `" is not a valid choice.`, "invalid_choice"})
	}
	// id and name: CharFields; name may be null.
	for _, f := range []struct {
		key      string
		nullable bool
	}{{"id", false}, {"name", true}} {
		v, present := m[f.key]
		if !present {
			continue
		}
		text, details := drfCharField(v, f.nullable)
		if len(details) > 0 {
			errs.addList(f.key, details...)
			continue
		}
		entry = append(entry, member{f.key, text})
	}
	// order: an IntegerField without bounds.
	if v, present := m["order"]; present {
		if n, detail := drfIntegerField(v); detail != nil {
			errs.addList("order", *detail)
		} else {
			entry = append(entry, member{"order", json.Number(n.String())})
		}
	}
	// properties: a ListField of DictFields, [] when left out.
	props, ok, propErrs := drfProperties(m)
	if propErrs != nil {
		errs.add("'properties'", propErrs)
	} else {
		stored = ok
		entry = append(entry, member{"properties", props})
	}
	if !errs.empty() {
		return nil, false, errs
	}
	return entry, stored, errs
}

// drfCharField reads a value as DRF's CharField (allow_blank false,
// trim_whitespace true) does: blank text (after Python's str.strip()) is
// refused before anything else; null is refused unless nullable; a bool,
// list or dict is not a string; a number becomes Python's str() of it;
// the stripped text is then checked for null characters and lone
// surrogates (each refusal collected, as DRF runs every validator).
func drfCharField(v any, nullable bool) (any, []errorDetail) {
	var s string
	switch x := v.(type) {
	case nil:
		if nullable {
			return nil, nil
		}
		return nil, []errorDetail{{msgNull, "null"}}
	case string:
		s = x
	case json.Number:
		s = pyNumber(x).Str()
	default:
		return nil, []errorDetail{{msgNotString, "invalid"}}
	}
	s = python.Strip(s)
	if s == "" {
		return nil, []errorDetail{{"This field may not be blank.", "blank"}}
	}
	var details []errorDetail
	if strings.IndexByte(s, 0) >= 0 {
		details = append(details, errorDetail{"Null characters are not allowed.", "null_characters_not_allowed"})
	}
	if r, lone := firstSurrogate(s); lone {
		details = append(details, errorDetail{fmt.Sprintf("Surrogate characters are not allowed: U+%X.", r), "surrogate_characters_not_allowed"})
	}
	if details != nil {
		return nil, details
	}
	return s, nil
}

// drfIntegerField reads a value as DRF's IntegerField does, with no bounds:
// null is refused; text longer than 1000 characters is refused; otherwise
// int(re.sub(r'\.0*\s*$', "", str(value))), so 2.0 and "2.0" are 2, 1e20
// (str "1e+20") and true ("True") are not integers.
func drfIntegerField(v any) (*big.Int, *errorDetail) {
	var text string
	switch x := v.(type) {
	case nil:
		return nil, &errorDetail{msgNull, "null"}
	case string:
		if pyLen(x) > maxIntegerText {
			return nil, &errorDetail{"String value too large.", "max_string_length"}
		}
		text = x
	case json.Number:
		text = pyNumber(x).Str()
	default:
		// str() of a bool, list or dict is never an integer's text.
		return nil, &errorDetail{msgNotInteger, "invalid"}
	}
	n, ok := python.IntegerField(text)
	if !ok {
		return nil, &errorDetail{msgNotInteger, "invalid"}
	}
	return n, nil
}

// drfProperties reads an entry's properties as its ListField of
// DictFields: [] when left out; null and anything but a list (a string or
// an object too) refused; every item must be an object (null is a null
// error), the refusals collected by index; item values are kept, numbers
// as the service stores them.
func drfProperties(m map[string]any) (props []any, stored bool, errs *drfErrors) {
	raw, present := m["properties"]
	switch list, isList := raw.([]any); {
	case !present:
		return []any{}, true, nil
	case raw == nil:
		return nil, false, &drfErrors{list: []errorDetail{{msgNull, "null"}}}
	case !isList:
		return nil, false, &drfErrors{list: []errorDetail{{
			fmt.Sprintf("Expected a list of items but got type %q.", pyType(raw)), "not_a_list"}}}
	default:
		items := &drfErrors{dict: true}
		stored = true
		props = make([]any, len(list))
		for i, item := range list {
			switch obj, isObj := item.(map[string]any); {
			case item == nil:
				items.add(fmt.Sprint(i), &drfErrors{list: []errorDetail{{msgNull, "null"}}})
			case !isObj:
				items.add(fmt.Sprint(i), &drfErrors{list: []errorDetail{{
					fmt.Sprintf("Expected a dictionary of items but got type %q.", pyType(item)), "not_a_dict"}}})
			default:
				v, ok := pyStored(obj)
				stored = stored && ok
				props[i] = v
			}
		}
		if !items.empty() {
			return nil, false, items
		}
		return props, stored, nil
	}
}

// errorDetail is one DRF ErrorDetail: a message and its code.
type errorDetail struct{ msg, code string }

// drfErrors is a DRF error detail: a list of ErrorDetails, or a dict of
// details (keys written as Python writes them: 'type', 0).
type drfErrors struct {
	list []errorDetail
	dict bool
	keys []string
	vals []*drfErrors
}

func (e *drfErrors) isDict() bool { return e.dict }

func (e *drfErrors) empty() bool { return len(e.list) == 0 && len(e.keys) == 0 }

func (e *drfErrors) add(key string, v *drfErrors) {
	e.keys = append(e.keys, key)
	e.vals = append(e.vals, v)
}

func (e *drfErrors) addList(field string, details ...errorDetail) {
	e.add(pyStrRepr(field), &drfErrors{list: details})
}

// codes is Python's str() of the detail's get_codes().
func (e *drfErrors) codes() string {
	return e.format(func(d errorDetail) string { return pyStrRepr(d.code) })
}

// str is Python's str() of the detail: ErrorDetails written as their repr.
func (e *drfErrors) str() string {
	return e.format(func(d errorDetail) string {
		return "ErrorDetail(string=" + pyStrRepr(d.msg) + ", code=" + pyStrRepr(d.code) + ")"
	})
}

func (e *drfErrors) format(item func(errorDetail) string) string {
	parts := []string{}
	if !e.dict {
		for _, d := range e.list {
			parts = append(parts, item(d))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	for i, k := range e.keys {
		parts = append(parts, k+": "+e.vals[i].format(item))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// orderedObject is a JSON object written with its members in order, as
// the service's serializers return them.
type orderedObject []member

type member struct {
	key string
	val any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := marshalJSON(m.key)
		if err != nil {
			return nil, err
		}
		v, err := marshalJSON(m.val)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
