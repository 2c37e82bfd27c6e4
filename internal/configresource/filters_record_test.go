package configresource

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
		"null properties":  {`{"actions":[{"id":1,"type":"actions","properties":null}]}`, `{"actions":[{"id":1,"type":"actions","properties":[]}]}`, false}, // refused
		"dropped key":      {`{"events":[],"foo":{"bar":1}}`, `{"events":[]}`, true},
		"only dropped":     {`{"foo":1}`, `{}`, true},
		"empty object":     {`{}`, `{}`, true},
		"other properties": {`{"events":[{"type":"events","properties":[{"key":"a"}]}]}`, `{"events":[{"type":"events","properties":[]}]}`, false},
		"other event":      {`{"events":[{"id":"a","type":"events"}]}`, `{"events":[{"id":"b","type":"events"}]}`, false},
		"entry order":      {`{"events":[{"id":"a","type":"events"},{"id":"b","type":"events"}]}`, `{"events":[{"id":"b","type":"events"},{"id":"a","type":"events"}]}`, false},
		"test accounts":    {`{"filter_test_accounts":true}`, `{"filter_test_accounts":false}`, false},
		"id as text":       {`{"events":[{"id":5,"type":"events"}]}`, `{"events":[{"id":"5","type":"events"}]}`, true},
		"id as str()":      {`{"events":[{"id":1,"type":"events"}]}`, `{"events":[{"id":1.0,"type":"events"}]}`, false}, // "1" and "1.0"
		"float id":         {`{"events":[{"id":1e16,"type":"events"}]}`, `{"events":[{"id":"1e+16","type":"events"}]}`, true},
		"id precision":     {`{"events":[{"id":9007199254740993,"type":"events"}]}`, `{"events":[{"id":9007199254740992,"type":"events"}]}`, false},
		"id trimmed":       {`{"events":[{"id":" $pageview\n","type":"events"}]}`, `{"events":[{"id":"$pageview","type":"events"}]}`, true},
		"name trimmed":     {`{"events":[{"name":"\tPage view ","type":"events"}]}`, `{"events":[{"name":"Page view","type":"events"}]}`, true},
		"null name":        {`{"events":[{"name":null,"type":"events"}]}`, `{"events":[{"type":"events"}]}`, false},
		"order as integer": {`{"events":[{"order":"2","type":"events"}]}`, `{"events":[{"order":2.0,"type":"events"}]}`, true},
		"other order":      {`{"events":[{"order":2,"type":"events"}]}`, `{"events":[{"order":3,"type":"events"}]}`, false},
		"entry keys kept":  {`{"events":[{"type":"events","math":"total","custom_name":"x"}]}`, `{"events":[{"type":"events"}]}`, true},
		"test accounts 1":  {`{"filter_test_accounts":1}`, `{"filter_test_accounts":true}`, true},
		"test accounts no": {`{"filter_test_accounts":"no"}`, `{"filter_test_accounts":false}`, true},
		"property numbers": {`{"events":[{"type":"events","properties":[{"value":0.1000000000000000000001}]}]}`, `{"events":[{"type":"events","properties":[{"value":0.1}]}]}`, true},
		"null is none":     {`null`, `{}`, true},
		"dropped is none":  {`null`, `{"foo":1}`, true},
		"none and some":    {`null`, `{"events":[]}`, false},
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
		"blank id":                   {value: `{"events":[{"type":"events","id":" "}]}`, errors: []string{"filters.events[0].id must not be blank"}},
		"null id":                    {value: `{"events":[{"type":"events","id":null}]}`, errors: []string{"filters.events[0].id must be a string, got null"}},
		"boolean id":                 {value: `{"events":[{"type":"events","id":true}]}`, errors: []string{"filters.events[0].id must be a string, got a boolean"}},
		"blank name":                 {value: `{"actions":[{"type":"actions","name":""}]}`, errors: []string{"filters.actions[0].name must not be blank"}},
		"null character":             {value: `{"actions":[{"type":"actions","name":"a\u0000b"}]}`, errors: []string{"null character"}},
		"fractional order":           {value: `{"events":[{"type":"events","order":2.5}]}`, errors: []string{"filters.events[0].order must be an integer, got 2.5"}},
		"order past str()":           {value: `{"events":[{"type":"events","order":1e20}]}`, errors: []string{"order must be an integer, got 1e20"}},
		"order as word":              {value: `{"events":[{"type":"events","order":"two"}]}`, errors: []string{`order must be an integer, got "two"`}},
		"order null":                 {value: `{"events":[{"type":"events","order":null}]}`, errors: []string{"order must be an integer, got null"}},
		"order as boolean":           {value: `{"events":[{"type":"events","order":true}]}`, errors: []string{"order must be an integer, got a boolean"}},
		"null properties":            {value: `{"events":[{"type":"events","properties":null}]}`, errors: []string{"properties must be a list of objects, got null"}},
		"property not object":        {value: `{"events":[{"type":"events","properties":["a"]}]}`, errors: []string{"properties[0] must be an object"}},
		"infinite property":          {value: `{"events":[{"type":"events","properties":[{"value":1e400}]}]}`, errors: []string{"filters.events[0].properties[0].value is a number past a double's range"}},
		"rewritten values":           {value: `{"events":[{"type":"events","id":5,"name":" x ","order":"2"}],"filter_test_accounts":"true"}`},
		"entry key":                  {value: `{"events":[{"type":"events","math":"total"}]}`, warning: "drops events[0].math"},
		"entry not object":           {value: `{"actions":[1]}`, errors: []string{"filters.actions[0] must be an object"}},
		"entry without type":         {value: `{"events":[{"id":"a","type":"events"},{"id":"b"}]}`, errors: []string{`filters.events[1] needs a "type"`}},
		"other entry type":           {value: `{"events":[{"type":"event"}]}`, errors: []string{`filters.events[0].type must be "events" or "actions", got "event".`}},
		"type not a string":          {value: `{"actions":[{"type":true}]}`, errors: []string{`filters.actions[0].type must be "events" or "actions", got a boolean.`}},
		"either type in either list": {value: `{"events":[{"type":"actions"}],"actions":[{"type":"events"}]}`},
		"bad properties":             {value: `{"events":[{"type":"events","properties":{}}]}`, errors: []string{"properties must be a list"}},
		"bad test accounts":          {value: `{"filter_test_accounts":"maybe"}`, errors: []string{"must be true or false"}},
		"test accounts null":         {value: `{"filter_test_accounts":null}`, errors: []string{"must be true or false, got null"}},
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
