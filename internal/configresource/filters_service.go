package configresource

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// serviceFilters follows the service's FiltersSerializer (PostHog's
// posthog/api/shared.py) field by field, so that a plan refuses what the
// service refuses and compares what it rewrites as it stores it.

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

// serviceFilters applies the serializer to a decoded value.
func serviceFilters(v any) filtersCheck {
	var c filtersCheck
	obj, ok := v.(map[string]any)
	if !ok {
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
	if n, isNumber := v.(json.Number); isNumber {
		p, err := python.ParseNumber(n.String())
		s, isString = p.Str(), err == nil
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
func (c *filtersCheck) integer(v any, at string) (json.Number, bool) {
	text, _ := v.(string)
	if python.Len(text) > maxIntegerText {
		c.fail("%s must be an integer: the service reads no text longer than %d characters.", at, maxIntegerText)
		return "", false
	}
	if n, isNumber := v.(json.Number); isNumber {
		if p, err := python.ParseNumber(n.String()); err == nil {
			text = p.Str()
		}
	}
	if n, ok := python.IntegerField(text); ok {
		return json.Number(n.String()), true
	}
	c.fail("%s must be an integer, got %s.", at, describe(v))
	return "", false
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
	case json.Number:
		n, err := python.ParseNumber(x.String())
		one := n.Equal(python.Number{Float: 1})
		return one, err == nil && (one || n.Equal(python.Number{Float: 0}))
	}
	return false, false
}

// describe names a value for an error: a string or number as written, any
// other value by its JSON kind.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case json.Number:
		return x.String()
	}
	return jsonKind(v)
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
