package localapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// rawField is a record's field as the answer wrote it.
func rawField(t testing.TB, r *response, field string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.body)
	}
	raw, ok := m[field]
	if !ok {
		t.Fatalf("no %s in %s", field, r.body)
	}
	return string(raw)
}

// What the service stores of filters sent (its FiltersSerializer): only
// events, actions and filter_test_accounts, in that order; entries with
// only type, id, name, order and properties, in that order; numbers as
// Python reads and writes them.
var filtersStored = []struct {
	name, sent, want string
}{
	{"empty", `{}`, `{}`},
	{"unknown keys dropped", `{"properties": [], "foo": 1, "filter_test_accounts": false}`, `{"filter_test_accounts":false}`},
	{"properties added", `{"events": [{"id": "$pageview", "type": "events"}]}`,
		`{"events":[{"type":"events","id":"$pageview","properties":[]}]}`},
	{"entry fields ordered, others dropped",
		`{"actions": [{"math": "total", "properties": [{"key": "k", "value": 1.50}], "order": "2", "name": " Pageview ", "id": 4, "type": "actions", "custom_name": "x"}]}`,
		`{"actions":[{"type":"actions","id":"4","name":"Pageview","order":2,"properties":[{"key":"k","value":1.5}]}]}`},
	{"top level ordered", `{"filter_test_accounts": "true", "actions": [], "x": null, "events": []}`,
		`{"events":[],"actions":[],"filter_test_accounts":true}`},
	{"types crossed", `{"events": [{"id": 4, "type": "actions"}], "actions": [{"id": "$pageview", "type": "events"}]}`,
		`{"events":[{"type":"actions","id":"4","properties":[]}],"actions":[{"type":"events","id":"$pageview","properties":[]}]}`},
	// id: CharField, a number as Python's str() writes it, stripped.
	{"id numbers",
		`{"events": [{"type": "events", "id": 5}, {"type": "events", "id": 5.0}, {"type": "events", "id": 1e20}, {"type": "events", "id": 1E2}, {"type": "events", "id": -0.0}, {"type": "events", "id": 123456789012345678901234567890}, {"type": "events", "id": 0.1}, {"type": "events", "id": 1e400}, {"type": "events", "id": 0.3333333333333333333333333333333333333333}]}`,
		`{"events":[{"type":"events","id":"5","properties":[]},{"type":"events","id":"5.0","properties":[]},{"type":"events","id":"1e+20","properties":[]},{"type":"events","id":"100.0","properties":[]},{"type":"events","id":"-0.0","properties":[]},{"type":"events","id":"123456789012345678901234567890","properties":[]},{"type":"events","id":"0.1","properties":[]},{"type":"events","id":"inf","properties":[]},{"type":"events","id":"0.3333333333333333","properties":[]}]}`},
	{"id and name stripped as Python strips",
		`{"events": [{"type": "events", "id": "\u00a0 $pageview\n\u001f", "name": "\t\u2003Page view\u3000"}]}`,
		`{"events":[{"type":"events","id":"$pageview","name":"Page view","properties":[]}]}`},
	{"id a surrogate pair", `{"events": [{"type": "events", "id": "\ud83d\ude00"}]}`,
		`{"events":[{"type":"events","id":"😀","properties":[]}]}`},
	{"name null kept", `{"events": [{"name": null, "type": "events"}]}`,
		`{"events":[{"type":"events","name":null,"properties":[]}]}`},
	{"name a number", `{"events": [{"name": 1.50, "type": "events"}]}`,
		`{"events":[{"type":"events","name":"1.5","properties":[]}]}`},
	// order: IntegerField, no 32-bit range.
	{"orders",
		`{"events": [{"type": "events", "order": "2"}, {"type": "events", "order": 2.0}, {"type": "events", "order": "  3.00 "}, {"type": "events", "order": "1_000"}, {"type": "events", "order": 99999999999999999999999}, {"type": "events", "order": "-0"}, {"type": "events", "order": 1e15}, {"type": "events", "order": "\u0663"}, {"type": "events", "order": -7}]}`,
		`{"events":[{"type":"events","order":2,"properties":[]},{"type":"events","order":2,"properties":[]},{"type":"events","order":3,"properties":[]},{"type":"events","order":1000,"properties":[]},{"type":"events","order":99999999999999999999999,"properties":[]},{"type":"events","order":0,"properties":[]},{"type":"events","order":1000000000000000,"properties":[]},{"type":"events","order":3,"properties":[]},{"type":"events","order":-7,"properties":[]}]}`},
	{"filter_test_accounts 1", `{"filter_test_accounts": 1}`, `{"filter_test_accounts":true}`},
	{"filter_test_accounts 1.0", `{"filter_test_accounts": 1.0}`, `{"filter_test_accounts":true}`},
	{"filter_test_accounts 0.0", `{"filter_test_accounts": 0.0}`, `{"filter_test_accounts":false}`},
	{"filter_test_accounts off", `{"filter_test_accounts": "off"}`, `{"filter_test_accounts":false}`},
	{"filter_test_accounts Y", `{"filter_test_accounts": "Y"}`, `{"filter_test_accounts":true}`},
	// properties: values kept, numbers as json.dumps writes json.loads's.
	{"property numbers",
		`{"events": [{"type": "events", "properties": [{"a": 0.1, "b": 0.3333333333333333333333333333333333333333, "c": 1e300, "d": 1E2, "e": 123456789012345678901234567890, "f": -0, "g": [1.0, {"h": 2.50}], "i": null, "j": "1.50", "k": -0.0, "l": 1e-5, "m": 12345678901234567.0, "n": 1e-400}, {}]}]}`,
		`{"events":[{"type":"events","properties":[{"a":0.1,"b":0.3333333333333333,"c":1e+300,"d":100.0,"e":123456789012345678901234567890,"f":0,"g":[1.0,{"h":2.5}],"i":null,"j":"1.50","k":-0.0,"l":1e-05,"m":1.2345678901234568e+16,"n":0.0},{}]}]}`},
	{"values nobody reads may be anything", `{"events": [{"type": "events", "math": 1e400, "x": "\u0000"}], "other": -1e400}`,
		`{"events":[{"type":"events","properties":[]}]}`},
}

func TestFiltersStored(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, c := range filtersStored {
		t.Run(c.name, func(t *testing.T) {
			r := a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1, "filters": `+c.sent+`}`).want(t, 201)
			if got := rawField(t, r, "filters"); got != c.want {
				t.Fatalf("create stored\n%s\nwant\n%s", got, c.want)
			}
			p := path(1, tr, id(r.object(t)))
			// Every read answers the stored form.
			if got := rawField(t, a.do(http.MethodGet, p, full, nil).want(t, 200), "filters"); got != c.want {
				t.Errorf("retrieve\n%s\nwant\n%s", got, c.want)
			}
			// PATCH and PUT store the same; so does a form.
			if got := rawField(t, a.do(http.MethodPatch, p, full, `{"filters": `+c.sent+`}`).want(t, 200), "filters"); got != c.want {
				t.Errorf("PATCH\n%s\nwant\n%s", got, c.want)
			}
			if got := rawField(t, a.do(http.MethodPut, p, full, `{"plugin": 1, "order": 2, "filters": `+c.sent+`}`).want(t, 200), "filters"); got != c.want {
				t.Errorf("PUT\n%s\nwant\n%s", got, c.want)
			}
			if got := rawField(t, a.form(http.MethodPatch, p, full, map[string]string{"filters": c.sent}).want(t, 200), "filters"); got != c.want {
				t.Errorf("form\n%s\nwant\n%s", got, c.want)
			}
			// What reads back, sent again, is stored unchanged.
			if got := rawField(t, a.do(http.MethodPatch, p, full, `{"filters": `+c.want+`}`).want(t, 200), "filters"); got != c.want {
				t.Errorf("sent back\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestFiltersNullOnlyWhenNeverSet(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	r := a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1}`).want(t, 201)
	if got := rawField(t, r, "filters"); got != "null" {
		t.Errorf("never set: %s", got)
	}
	p := path(1, tr, id(r.object(t)))
	a.do(http.MethodPatch, p, full, `{"filters": {"events": []}}`).want(t, 200)
	// {} is how filters are cleared; null is refused.
	a.do(http.MethodPatch, p, full, `{"filters": null}`).wantError(t, 400, "validation_error", "null", "No data provided", "filters__non_field_errors")
	if got := rawField(t, a.do(http.MethodPatch, p, full, `{"filters": {}}`).want(t, 200), "filters"); got != "{}" {
		t.Errorf("cleared: %s", got)
	}
	if got := rawField(t, a.do(http.MethodGet, p, full, nil).want(t, 200), "filters"); got != "{}" {
		t.Errorf("cleared, read: %s", got)
	}
	// A PATCH without filters leaves them.
	if got := rawField(t, a.do(http.MethodPatch, p, full, `{"order": 3}`).want(t, 200), "filters"); got != "{}" {
		t.Errorf("left out: %s", got)
	}
}

// filtersRefused are filters the service refuses: the code, detail and
// attr of its answer (400 validation_error).
var filtersRefused = []struct {
	filters, code, detail, attr string
}{
	// The value itself.
	{`null`, "null", "No data provided", "filters__non_field_errors"},
	{`[]`, "invalid_input", "Invalid data. Expected a dictionary, but got list.", "filters__non_field_errors"},
	{`"x"`, "invalid_input", "Invalid data. Expected a dictionary, but got str.", "filters__non_field_errors"},
	{`1`, "invalid_input", "Invalid data. Expected a dictionary, but got int.", "filters__non_field_errors"},
	{`1.5`, "invalid_input", "Invalid data. Expected a dictionary, but got float.", "filters__non_field_errors"},
	{`true`, "invalid_input", "Invalid data. Expected a dictionary, but got bool.", "filters__non_field_errors"},
	// The lists and filter_test_accounts.
	{`{"events": null}`, "null", "This field may not be null.", "filters__events"},
	{`{"events": {"type": "events"}}`, "not_a_list", `Expected a list of items but got type "dict".`, "filters__events__non_field_errors"},
	{`{"events": "x"}`, "not_a_list", `Expected a list of items but got type "str".`, "filters__events__non_field_errors"},
	{`{"actions": 1}`, "not_a_list", `Expected a list of items but got type "int".`, "filters__actions__non_field_errors"},
	{`{"filter_test_accounts": "maybe"}`, "invalid_input", "Must be a valid boolean.", "filters__filter_test_accounts"},
	{`{"filter_test_accounts": null}`, "null", "This field may not be null.", "filters__filter_test_accounts"},
	{`{"filter_test_accounts": 2}`, "invalid_input", "Must be a valid boolean.", "filters__filter_test_accounts"},
	{`{"filter_test_accounts": 0.5}`, "invalid_input", "Must be a valid boolean.", "filters__filter_test_accounts"},
	{`{"filter_test_accounts": ""}`, "invalid_input", "Must be a valid boolean.", "filters__filter_test_accounts"},
	{`{"filter_test_accounts": []}`, "invalid_input", "Must be a valid boolean.", "filters__filter_test_accounts"},
	// An entry's errors are reported on its list, as the text of the
	// first entry's error codes and the first of its messages.
	{`{"events": [{"id": 1}]}`, "{'type': ['required']}", "[ErrorDetail(string='This field is required.', code='required')]", "filters__events"},
	{`{"events": [{"type": null}]}`, "{'type': ['null']}", "[ErrorDetail(string='This field may not be null.', code='null')]", "filters__events"},
	{`{"events": [{"type": "event"}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"event" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"events": [{"type": "Events"}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"Events" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"actions": [{"type": ""}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"" is not a valid choice.', code='invalid_choice')]`, "filters__actions"},
	{`{"events": [{"type": 1.50}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"1.5" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"events": [{"type": 1e400}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"inf" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"events": [{"type": true}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"True" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"events": [{"type": ["events"]}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"[\'events\']" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"events": [{"type": {"b": 1, "a": "x"}}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"{\'a\': \'x\', \'b\': 1}" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"events": [{"type": "it's"}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"it\'s" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"events": [{"type": "\u00a0x\u200b"}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"\xa0x\u200b" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"events": [{"type": ["\ud800"]}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"[\'\\ud800\']" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"events": [{"type": "events", "id": "  "}]}`, "{'id': ['blank']}", "[ErrorDetail(string='This field may not be blank.', code='blank')]", "filters__events"},
	{`{"events": [{"type": "events", "id": ""}]}`, "{'id': ['blank']}", "[ErrorDetail(string='This field may not be blank.', code='blank')]", "filters__events"},
	{`{"events": [{"type": "events", "id": "\u2003\u001c"}]}`, "{'id': ['blank']}", "[ErrorDetail(string='This field may not be blank.', code='blank')]", "filters__events"},
	{`{"events": [{"type": "events", "id": true}]}`, "{'id': ['invalid']}", "[ErrorDetail(string='Not a valid string.', code='invalid')]", "filters__events"},
	{`{"events": [{"type": "events", "id": []}]}`, "{'id': ['invalid']}", "[ErrorDetail(string='Not a valid string.', code='invalid')]", "filters__events"},
	{`{"events": [{"type": "events", "id": {}}]}`, "{'id': ['invalid']}", "[ErrorDetail(string='Not a valid string.', code='invalid')]", "filters__events"},
	{`{"events": [{"type": "events", "id": null}]}`, "{'id': ['null']}", "[ErrorDetail(string='This field may not be null.', code='null')]", "filters__events"},
	{`{"events": [{"type": "events", "id": " a\u0000b "}]}`, "{'id': ['null_characters_not_allowed']}", "[ErrorDetail(string='Null characters are not allowed.', code='null_characters_not_allowed')]", "filters__events"},
	{`{"events": [{"type": "events", "id": "\ud800"}]}`, "{'id': ['surrogate_characters_not_allowed']}", "[ErrorDetail(string='Surrogate characters are not allowed: U+D800.', code='surrogate_characters_not_allowed')]", "filters__events"},
	{`{"events": [{"type": "events", "id": "\u0000\udc00"}]}`, "{'id': ['null_characters_not_allowed', 'surrogate_characters_not_allowed']}",
		"[ErrorDetail(string='Null characters are not allowed.', code='null_characters_not_allowed'), ErrorDetail(string='Surrogate characters are not allowed: U+DC00.', code='surrogate_characters_not_allowed')]", "filters__events"},
	{`{"events": [{"type": "events", "name": " \t "}]}`, "{'name': ['blank']}", "[ErrorDetail(string='This field may not be blank.', code='blank')]", "filters__events"},
	{`{"events": [{"type": "events", "name": false}]}`, "{'name': ['invalid']}", "[ErrorDetail(string='Not a valid string.', code='invalid')]", "filters__events"},
	{`{"events": [{"type": "events", "name": "x\ude00y"}]}`, "{'name': ['surrogate_characters_not_allowed']}", "[ErrorDetail(string='Surrogate characters are not allowed: U+DE00.', code='surrogate_characters_not_allowed')]", "filters__events"},
	{`{"events": [{"type": "events", "order": null}]}`, "{'order': ['null']}", "[ErrorDetail(string='This field may not be null.', code='null')]", "filters__events"},
	{`{"events": [{"type": "events", "order": true}]}`, "{'order': ['invalid']}", "[ErrorDetail(string='A valid integer is required.', code='invalid')]", "filters__events"},
	{`{"events": [{"type": "events", "order": 1.5}]}`, "{'order': ['invalid']}", "[ErrorDetail(string='A valid integer is required.', code='invalid')]", "filters__events"},
	{`{"events": [{"type": "events", "order": 1e20}]}`, "{'order': ['invalid']}", "[ErrorDetail(string='A valid integer is required.', code='invalid')]", "filters__events"},
	{`{"events": [{"type": "events", "order": 1e400}]}`, "{'order': ['invalid']}", "[ErrorDetail(string='A valid integer is required.', code='invalid')]", "filters__events"},
	{`{"events": [{"type": "events", "order": "2.5"}]}`, "{'order': ['invalid']}", "[ErrorDetail(string='A valid integer is required.', code='invalid')]", "filters__events"},
	{`{"events": [{"type": "events", "order": [1]}]}`, "{'order': ['invalid']}", "[ErrorDetail(string='A valid integer is required.', code='invalid')]", "filters__events"},
	{`{"events": [{"type": "events", "order": "` + strings.Repeat("1", 1001) + `"}]}`, "{'order': ['max_string_length']}", "[ErrorDetail(string='String value too large.', code='max_string_length')]", "filters__events"},
	{`{"events": [{"type": "events", "properties": null}]}`, "{'properties': ['null']}", "[ErrorDetail(string='This field may not be null.', code='null')]", "filters__events"},
	{`{"events": [{"type": "events", "properties": {}}]}`, "{'properties': ['not_a_list']}", `[ErrorDetail(string='Expected a list of items but got type "dict".', code='not_a_list')]`, "filters__events"},
	{`{"events": [{"type": "events", "properties": "x"}]}`, "{'properties': ['not_a_list']}", `[ErrorDetail(string='Expected a list of items but got type "str".', code='not_a_list')]`, "filters__events"},
	{`{"events": [{"type": "events", "properties": 1}]}`, "{'properties': ['not_a_list']}", `[ErrorDetail(string='Expected a list of items but got type "int".', code='not_a_list')]`, "filters__events"},
	{`{"events": [{"type": "events", "properties": ["x", {}, null, 2]}]}`, "{'properties': {0: ['not_a_dict'], 2: ['null'], 3: ['not_a_dict']}}",
		`{0: [ErrorDetail(string='Expected a dictionary of items but got type "str".', code='not_a_dict')], 2: [ErrorDetail(string='This field may not be null.', code='null')], 3: [ErrorDetail(string='Expected a dictionary of items but got type "int".', code='not_a_dict')]}`, "filters__events"},
	// Every failing field of the first entry, in the serializer's order.
	{`{"events": [{"order": "y", "id": " ", "type": "x"}]}`, "{'type': ['invalid_choice'], 'id': ['blank'], 'order': ['invalid']}", `[ErrorDetail(string='"x" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
	{`{"events": [{"properties": [1], "name": "", "id": []}]}`, "{'type': ['required'], 'id': ['invalid'], 'name': ['blank'], 'properties': {0: ['not_a_dict']}}", "[ErrorDetail(string='This field is required.', code='required')]", "filters__events"},
	// An entry that is not an object, or null.
	{`{"events": ["x"]}`, "{'non_field_errors': ['invalid']}", "[ErrorDetail(string='Invalid data. Expected a dictionary, but got str.', code='invalid')]", "filters__events"},
	{`{"events": [[]]}`, "{'non_field_errors': ['invalid']}", "[ErrorDetail(string='Invalid data. Expected a dictionary, but got list.', code='invalid')]", "filters__events"},
	{`{"events": [null]}`, "['null']", "A server error occurred.", "filters__events"},
	// A valid first entry: its empty error dict is the code.
	{`{"actions": [{"type": "actions"}, {"id": 2}]}`, "{}", "A server error occurred.", "filters__actions"},
	{`{"actions": [{"type": "actions"}, "x", {"type": 1}]}`, "{}", "A server error occurred.", "filters__actions"},
	// The first failing field of filters answers.
	{`{"filter_test_accounts": "x", "actions": [{}], "events": {}}`, "not_a_list", `Expected a list of items but got type "dict".`, "filters__events__non_field_errors"},
	{`{"filter_test_accounts": "x", "actions": [{}], "events": []}`, "{'type': ['required']}", "[ErrorDetail(string='This field is required.', code='required')]", "filters__actions"},
}

func TestFiltersRefused(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1, "filters": {"events": [{"type": "events", "id": "kept"}]}}`).want(t, 201)
	p := path(1, tr, id(rec.object(t)))
	stored := rawField(t, rec, "filters")
	for _, c := range filtersRefused {
		t.Run(c.filters, func(t *testing.T) {
			a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1, "filters": `+c.filters+`}`).
				wantError(t, 400, "validation_error", c.code, c.detail, c.attr)
			a.do(http.MethodPatch, p, full, `{"filters": `+c.filters+`}`).
				wantError(t, 400, "validation_error", c.code, c.detail, c.attr)
			a.form(http.MethodPatch, p, full, map[string]string{"filters": c.filters}).
				wantError(t, 400, "validation_error", c.code, c.detail, c.attr)
			a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "filters": c.filters}).
				wantError(t, 400, "validation_error", c.code, c.detail, c.attr)
		})
	}
	if got := rawField(t, a.do(http.MethodGet, p, full, nil).want(t, 200), "filters"); got != stored {
		t.Errorf("refused filters changed the record: %s", got)
	}
	if n := num(a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200).object(t), "count"); n != 1 {
		t.Errorf("refused creates stored records: count %d", n)
	}
}

// Filters come after every other field: the first failing field answers.
func TestFiltersValidatedLast(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1, "deleted": null, "filters": null}`).
		wantError(t, 400, "validation_error", "null", "This field may not be null.", "deleted")
	a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1, "name": [], "filters": []}`).
		wantError(t, 400, "validation_error", "invalid_input", "Not a valid string.", "name")
	a.do(http.MethodPost, path(1, tr), full, `{"order": 1, "filters": null}`).
		wantError(t, 400, "validation_error", "required", "This field is required.", "plugin")
	// The form's config is read after the fields.
	a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "filters": "", "config": "{"}).
		wantError(t, 400, "validation_error", "invalid_input", "Value must be valid JSON.", "filters")
}

// In a form, filters is JSON text read by json.loads: empty text is not
// JSON, and NaN and Infinity are numbers.
func TestFiltersInForms(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "filters": `{"events": [{"type": "events"}]}`}).want(t, 201)
	p := path(1, tr, id(rec.object(t)))
	stored := rawField(t, rec, "filters")
	for _, c := range []struct {
		filters, code, detail, attr string
	}{
		{"", "invalid_input", "Value must be valid JSON.", "filters"},
		{" ", "invalid_input", "Value must be valid JSON.", "filters"},
		{"{", "invalid_input", "Value must be valid JSON.", "filters"},
		{"{} x", "invalid_input", "Value must be valid JSON.", "filters"},
		{"{'events': []}", "invalid_input", "Value must be valid JSON.", "filters"},
		{`{"events": [{"type": "events", "order": 1` + strings.Repeat("0", 4300) + `}]}`, "invalid_input", "Value must be valid JSON.", "filters"},
		{"null", "null", "No data provided", "filters__non_field_errors"},
		{"NaN", "invalid_input", "Invalid data. Expected a dictionary, but got float.", "filters__non_field_errors"},
		{"-Infinity", "invalid_input", "Invalid data. Expected a dictionary, but got float.", "filters__non_field_errors"},
		{`{"events": [{"type": "events", "order": Infinity}]}`, "{'order': ['invalid']}", "[ErrorDetail(string='A valid integer is required.', code='invalid')]", "filters__events"},
		{`{"events": [{"type": NaN}]}`, "{'type': ['invalid_choice']}", `[ErrorDetail(string='"nan" is not a valid choice.', code='invalid_choice')]`, "filters__events"},
		{`{"filter_test_accounts": NaN}`, "invalid_input", "Must be a valid boolean.", "filters__filter_test_accounts"},
	} {
		a.form(http.MethodPatch, p, full, map[string]string{"filters": c.filters}).wantError(t, 400, "validation_error", c.code, c.detail, c.attr)
	}
	for sent, want := range map[string]string{
		`{"events": [{"type": "events", "id": NaN, "name": -Infinity}], "x": Infinity}`: `{"events":[{"type":"events","id":"nan","name":"-inf","properties":[]}]}`,
		` {"actions": []} `: `{"actions":[]}`,
		`{"events": [{"type": "events", "order": ` + "1" + strings.Repeat("0", 4299) + `}]}`: `{"events":[{"type":"events","order":1` + strings.Repeat("0", 4299) + `,"properties":[]}]}`,
	} {
		if got := rawField(t, a.form(http.MethodPatch, p, full, map[string]string{"filters": sent}).want(t, 200), "filters"); got != want {
			t.Errorf("form %s stored %s, want %s", sent, got, want)
		}
	}
	// A form without filters leaves them.
	a.form(http.MethodPatch, p, full, map[string]string{"filters": `{"events": [{"type": "events"}]}`}).want(t, 200)
	if got := rawField(t, a.form(http.MethodPatch, p, full, map[string]string{"order": "4"}).want(t, 200), "filters"); got != stored {
		t.Errorf("filters left out: %s, want %s", got, stored)
	}
}
