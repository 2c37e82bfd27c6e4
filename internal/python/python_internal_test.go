package python

import (
	"encoding/json"
	"testing"
)

func TestEqual(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		a, b string
		want bool
	}{
		"identical":             {`{"a":1}`, `{"a":1}`, true},
		"spacing":               {`{ "a" : [ 1, 2 ] }`, `{"a":[1,2]}`, true},
		"key order":             {`{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		"number by value":       {`{"n":1}`, `{"n":1.0}`, true},
		"exponent":              {`100`, `1e2`, true},
		"precision kept":        {`9007199254740993`, `9007199254740992`, false},
		"other value":           {`{"a":1}`, `{"a":2}`, false},
		"missing key":           {`{"a":1}`, `{"a":1,"b":null}`, false},
		"array order":           {`[1,2]`, `[2,1]`, false},
		"number and string":     {`1`, `"1"`, false},
		"nested":                {`{"a":[{"b":true,"c":null}]}`, `{"a":[{"c":null,"b":true}]}`, true},
		"not JSON, same text":   {`{`, `{`, true},
		"not JSON, other text":  {`{`, `{}`, false},
		"trailing data":         {`{} {}`, `{}`, false},
		"huge exponent as text": {`{"n":1e9999999}`, `{ "n": 1e9999999 }`, true},
		"past the double":       {`{"n":1e9999999}`, `{"n":2e9999999}`, true}, // both inf to Python
		"big ints exact":        {`123456789012345678901234567890`, `123456789012345678901234567891`, false},
		"the nearest double":    {`0.1`, `0.10000000000000000001`, true},
		"a long 1/3":            {`0.3333333333333333333333333333333333333333`, `0.3333333333333333`, true},
		"an int is no double":   {`9007199254740993`, `9007199254740993.0`, false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := Equal(json.RawMessage(tt.a), json.RawMessage(tt.b)); got != tt.want {
				t.Errorf("Equal(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := Equal(json.RawMessage(tt.b), json.RawMessage(tt.a)); got != tt.want {
				t.Errorf("Equal(%s, %s) = %v, want %v (not symmetric)", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

func TestNullCompactObject(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]bool{"": true, " null ": true, "{}": false, `"null"`: false} {
		if got := IsNull(json.RawMessage(raw)); got != want {
			t.Errorf("IsNull(%q) = %v, want %v", raw, got, want)
		}
	}
	if got := Compact(json.RawMessage(`{ "a" : [1, 2] }`)); got != `{"a":[1,2]}` {
		t.Errorf("Compact = %s", got)
	}
	if got := Compact(json.RawMessage(`{ not json`)); got != `{ not json` {
		t.Errorf("Compact of non-JSON = %s, want it as it was", got)
	}
	for s, want := range map[string]bool{`{"a":1}`: true, `{}`: true, `null`: false, `[1]`: false, `"x"`: false, `{`: false} {
		if _, got := Object(s); got != want {
			t.Errorf("Object(%s) ok = %v, want %v", s, got, want)
		}
	}
	if _, err := Decode(`{} x`); err == nil {
		t.Error("Decode accepted trailing data")
	}
	if v, err := Decode(`12345678901234567890`); err != nil || v != json.Number("12345678901234567890") {
		t.Errorf("Decode = %v, %v; want the number as written", v, err)
	}
}
