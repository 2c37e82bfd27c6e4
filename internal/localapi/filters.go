package localapi

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// parseFilters validates and normalises the filters field the way the live
// service does: an object or null; only events, actions and
// filter_test_accounts are kept; every entry of events and actions needs a
// type, "events" or "actions", and gains "properties": [] when it has none.
func parseFilters(v any, form bool) (json.RawMessage, *apiError) {
	if s, isStr := v.(string); form && isStr {
		// A form carries JSON as text; an empty value is null.
		if s == "" {
			return nil, nil
		}
		decoded, err := decodeJSON([]byte(s))
		if err != nil {
			return nil, errInvalid("Value must be valid JSON.", "filters")
		}
		v = decoded
	}
	if v == nil {
		return nil, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errInvalid("Invalid data. Expected a dictionary, but got "+pyType(v)+".", "filters")
	}
	out := map[string]any{}
	for _, key := range []string{"events", "actions"} {
		raw, present := obj[key]
		if !present {
			continue
		}
		entries, e := filterEntries(raw, "filters__"+key)
		if e != nil {
			return nil, e
		}
		out[key] = entries
	}
	if raw, present := obj["filter_test_accounts"]; present {
		b, e := coerceBool(raw, "filters__filter_test_accounts")
		if e != nil {
			return nil, e
		}
		out["filter_test_accounts"] = b
	}
	buf, err := marshalJSON(out)
	if err != nil {
		return nil, errInvalid("Value must be valid JSON.", "filters")
	}
	return buf, nil
}

// filterEntries checks one events/actions list and fills in properties.
func filterEntries(raw any, attr string) ([]any, *apiError) {
	if raw == nil {
		return nil, errNullField(attr)
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, errValidation("not_a_list", fmt.Sprintf("Expected a list of items but got type %q.", pyType(raw)), attr)
	}
	out := make([]any, len(list))
	for i, item := range list {
		at := attr + "__" + strconv.Itoa(i)
		entry, ok := item.(map[string]any)
		if !ok {
			return nil, errValidation("not_a_dict", fmt.Sprintf("Expected a dictionary of items but got type %q.", pyType(item)), at)
		}
		if e := checkEntryType(entry, at+"__type"); e != nil {
			return nil, e
		}
		copied := make(map[string]any, len(entry)+1)
		for k, v := range entry {
			copied[k] = v
		}
		if props, has := copied["properties"]; !has || props == nil {
			copied["properties"] = []any{}
		} else if _, isList := props.([]any); !isList {
			return nil, errValidation("not_a_list", fmt.Sprintf("Expected a list of items but got type %q.", pyType(props)), at+"__properties")
		}
		out[i] = copied
	}
	return out, nil
}

// entryTypes are the values an entry's type may take, in either list (the
// notes: one of events or actions).
var entryTypes = map[string]bool{"events": true, "actions": true}

// checkEntryType checks an entry's type as DRF's ChoiceField does: present,
// not null, and one of entryTypes (only strings can be); the detail quotes
// Python's str() of the value.
func checkEntryType(entry map[string]any, attr string) *apiError {
	typ, present := entry["type"]
	switch {
	case !present:
		return errRequired(attr)
	case typ == nil:
		return errNullField(attr)
	}
	if s, isStr := typ.(string); isStr && entryTypes[s] {
		return nil
	}
	return errValidation("invalid_choice", `"`+pyStr(typ)+`" is not a valid choice.`, attr)
}
