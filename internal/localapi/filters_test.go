package localapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

func TestFiltersNormalised(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	cases := []struct {
		name string
		sent string
		want string
	}{
		{"null", `null`, `null`},
		{"empty", `{}`, `{}`},
		{"unknown keys dropped", `{"properties": [], "foo": 1}`, `{}`},
		{"properties added", `{"events": [{"id": "$pageview", "type": "events"}]}`,
			`{"events": [{"id": "$pageview", "type": "events", "properties": []}]}`},
		{"properties kept", `{"actions": [{"id": 4, "type": "actions", "properties": [{"key": "k", "value": 1.50}]}]}`,
			`{"actions": [{"id": 4, "type": "actions", "properties": [{"key": "k", "value": 1.50}]}]}`},
		{"all three", `{"events": [], "actions": [], "filter_test_accounts": "true", "x": null}`,
			`{"events": [], "actions": [], "filter_test_accounts": true}`},
		// Either type in either list (the notes: one of events or actions).
		{"types crossed", `{"events": [{"id": 4, "type": "actions"}], "actions": [{"id": "$pageview", "type": "events"}]}`,
			`{"events": [{"id": 4, "type": "actions", "properties": []}], "actions": [{"id": "$pageview", "type": "events", "properties": []}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := `{"plugin": 1, "order": 1, "filters": ` + c.sent + `}`
			rec := a.do(http.MethodPost, path(1, tr), full, body).want(t, 201).object(t)
			if !jsonEqual(t, rec["filters"], c.want) {
				t.Errorf("filters %v, want %s", rec["filters"], c.want)
			}
			// Reads answer the same normalised value; PATCH normalises too.
			got := a.do(http.MethodPatch, path(1, tr, id(rec)), full, `{"filters": `+c.sent+`}`).want(t, 200).object(t)
			if !jsonEqual(t, got["filters"], c.want) {
				t.Errorf("PATCH filters %v, want %s", got["filters"], c.want)
			}
		})
	}
}

func jsonEqual(t *testing.T, got any, want string) bool {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(got)
	wb, _ := json.Marshal(w)
	return string(g) == string(wb)
}

func TestFiltersValidation(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	cases := []struct {
		filters            string
		code, detail, attr string
	}{
		{`[]`, "invalid_input", "Invalid data. Expected a dictionary, but got list.", "filters"},
		{`"x"`, "invalid_input", "Invalid data. Expected a dictionary, but got str.", "filters"},
		{`{"events": [{"id": 1}]}`, "required", "This field is required.", "filters__events__0__type"},
		{`{"actions": [{"type": "actions"}, {"id": 2}]}`, "required", "This field is required.", "filters__actions__1__type"},
		{`{"events": [{"type": null}]}`, "null", "This field may not be null.", "filters__events__0__type"},
		// Any type but events or actions, worded as DRF's ChoiceField words it.
		{`{"events": [{"type": "event"}]}`, "invalid_choice", `"event" is not a valid choice.`, "filters__events__0__type"},
		{`{"events": [{"type": "Events"}]}`, "invalid_choice", `"Events" is not a valid choice.`, "filters__events__0__type"},
		{`{"actions": [{"type": "actions"}, {"type": ""}]}`, "invalid_choice", `"" is not a valid choice.`, "filters__actions__1__type"},
		{`{"actions": [{"type": "new_entity"}]}`, "invalid_choice", `"new_entity" is not a valid choice.`, "filters__actions__0__type"},
		{`{"events": [{"type": 1}]}`, "invalid_choice", `"1" is not a valid choice.`, "filters__events__0__type"},
		{`{"events": [{"type": true}]}`, "invalid_choice", `"True" is not a valid choice.`, "filters__events__0__type"},
		{`{"events": [{"type": ["events"]}]}`, "invalid_choice", `"['events']" is not a valid choice.`, "filters__events__0__type"},
		{`{"events": [{"type": {"b": 1, "a": "x"}}]}`, "invalid_choice", `"{'a': 'x', 'b': 1}" is not a valid choice.`, "filters__events__0__type"},
		{`{"events": {"type": "events"}}`, "not_a_list", `Expected a list of items but got type "dict".`, "filters__events"},
		{`{"events": null}`, "null", "This field may not be null.", "filters__events"},
		{`{"events": ["x"]}`, "not_a_dict", `Expected a dictionary of items but got type "str".`, "filters__events__0"},
		{`{"events": [{"type": "events", "properties": {}}]}`, "not_a_list", `Expected a list of items but got type "dict".`, "filters__events__0__properties"},
		{`{"filter_test_accounts": "maybe"}`, "invalid_input", "Must be a valid boolean.", "filters__filter_test_accounts"},
	}
	rec := a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
	for _, c := range cases {
		t.Run(c.filters, func(t *testing.T) {
			a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1, "filters": `+c.filters+`}`).
				wantError(t, 400, "validation_error", c.code, c.detail, c.attr)
			a.do(http.MethodPatch, path(1, tr, id(rec)), full, `{"filters": `+c.filters+`}`).
				wantError(t, 400, "validation_error", c.code, c.detail, c.attr)
		})
	}
}
