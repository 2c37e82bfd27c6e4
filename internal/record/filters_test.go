package record

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

func TestFiltersEqual(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		a, b string
		want bool
	}{
		"identical":        {`{"events":[]}`, `{"events":[]}`, true},
		"whitespace":       {`{ "events" : [ ] }`, `{"events":[]}`, true},
		"key order":        {`{"filter_test_accounts":true,"events":[]}`, `{"events":[],"filter_test_accounts":true}`, true},
		"entry key order":  {`{"events":[{"type":"events","id":"$pageview"}]}`, `{"events":[{"id":"$pageview","type":"events","properties":[]}]}`, true},
		"added properties": {`{"events":[{"id":"$pageview","type":"events"}]}`, `{"events":[{"id":"$pageview","type":"events","properties":[]}]}`, true},
		"null properties":  {`{"actions":[{"id":1,"type":"actions","properties":null}]}`, `{"actions":[{"id":1,"type":"actions","properties":[]}]}`, true},
		"dropped key":      {`{"events":[],"foo":{"bar":1}}`, `{"events":[]}`, true},
		"only dropped":     {`{"foo":1}`, `{}`, true},
		"empty object":     {`{}`, `{}`, true},
		"other properties": {`{"events":[{"type":"events","properties":[{"key":"a"}]}]}`, `{"events":[{"type":"events","properties":[]}]}`, false},
		"other event":      {`{"events":[{"id":"a","type":"events"}]}`, `{"events":[{"id":"b","type":"events"}]}`, false},
		"entry order":      {`{"events":[{"id":"a","type":"events"},{"id":"b","type":"events"}]}`, `{"events":[{"id":"b","type":"events"},{"id":"a","type":"events"}]}`, false},
		"test accounts":    {`{"filter_test_accounts":true}`, `{"filter_test_accounts":false}`, false},
		"number by value":  {`{"events":[{"id":1,"type":"events"}]}`, `{"events":[{"id":1.0,"type":"events"}]}`, true},
		"number precision": {`{"events":[{"id":9007199254740993,"type":"events"}]}`, `{"events":[{"id":9007199254740992,"type":"events"}]}`, false},
		"not json":         {`{`, `{}`, false},
		"same not json":    {`{`, `{`, true},
		"non-object":       {`[1, 2]`, `[1,2]`, true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := FiltersEqual(tt.a, tt.b); got != tt.want {
				t.Errorf("FiltersEqual(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := FiltersEqual(tt.b, tt.a); got != tt.want {
				t.Errorf("FiltersEqual(%s, %s) = %v, want %v (not symmetric)", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

func TestFiltersSemanticEquals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	configured := NewFiltersValue(`{"events": [{"id": "$pageview", "type": "events"}], "note": "x"}`)
	stored := NewFiltersValue(`{"events":[{"id":"$pageview","properties":[],"type":"events"}]}`)
	equal, diags := configured.StringSemanticEquals(ctx, stored)
	if diags.HasError() || !equal {
		t.Fatalf("want equal without diagnostics, got %v %v", equal, diags)
	}
	other := NewFiltersValue(`{"actions":[{"id":1,"type":"actions"}]}`)
	if equal, _ := configured.StringSemanticEquals(ctx, other); equal {
		t.Fatal("different filters compare equal")
	}
}

func TestFiltersValidate(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		value   string
		errors  []string // substrings, one per expected error
		warning string
	}{
		"valid":                      {value: `{"events":[{"id":"$pageview","type":"events"}],"filter_test_accounts":true}`},
		"empty object":               {value: `{}`},
		"not json":                   {value: `{"events":`, errors: []string{"must be a JSON object"}},
		"trailing data":              {value: `{} {}`, errors: []string{"must be a JSON object"}},
		"array":                      {value: `[]`, errors: []string{"got a list"}},
		"string":                     {value: `"x"`, errors: []string{"got a string"}},
		"events not list":            {value: `{"events":{}}`, errors: []string{"filters.events must be a list"}},
		"events null":                {value: `{"events":null}`, errors: []string{"filters.events must be a list, got null"}},
		"entry not object":           {value: `{"actions":[1]}`, errors: []string{"filters.actions[0] must be an object"}},
		"entry without type":         {value: `{"events":[{"id":"a","type":"events"},{"id":"b"}]}`, errors: []string{`filters.events[1] needs a "type"`}},
		"other entry type":           {value: `{"events":[{"type":"event"}]}`, errors: []string{`filters.events[0].type must be "events" or "actions", got "event".`}},
		"type not a string":          {value: `{"actions":[{"type":true}]}`, errors: []string{`filters.actions[0].type must be "events" or "actions", got a boolean.`}},
		"either type in either list": {value: `{"events":[{"type":"actions"}],"actions":[{"type":"events"}]}`},
		"bad properties":             {value: `{"events":[{"type":"events","properties":{}}]}`, errors: []string{"properties must be a list"}},
		"bad test accounts":          {value: `{"filter_test_accounts":"yes"}`, errors: []string{"must be true or false"}},
		"unknown key":                {value: `{"events":[],"foo":1,"bar":2}`, warning: "drops bar, foo"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var resp xattr.ValidateAttributeResponse
			NewFiltersValue(tt.value).ValidateAttribute(context.Background(),
				xattr.ValidateAttributeRequest{Path: path.Root("filters")}, &resp)
			errs := resp.Diagnostics.Errors()
			if len(errs) != len(tt.errors) {
				t.Fatalf("got %d errors %v, want %d", len(errs), errs, len(tt.errors))
			}
			for i, want := range tt.errors {
				if !strings.Contains(errs[i].Detail(), want) {
					t.Errorf("error %q does not mention %q", errs[i].Detail(), want)
				}
			}
			warns := resp.Diagnostics.Warnings()
			switch {
			case tt.warning == "" && len(warns) > 0:
				t.Errorf("unexpected warnings %v", warns)
			case tt.warning != "" && (len(warns) != 1 || !strings.Contains(warns[0].Detail(), tt.warning)):
				t.Errorf("got warnings %v, want one mentioning %q", warns, tt.warning)
			}
		})
	}
}
