package client

import (
	"strings"
	"testing"
)

// The shapes an error body comes in, each read into the fields it carries.
// The client's tests cover the same through HTTP answers (errors_test.go).
func TestDecodeAnswer(t *testing.T) {
	cases := []struct {
		name, body string
		want       answerFields
	}{
		{"empty", "  ", answerFields{}},
		{"envelope", `{"type":"validation_error","code":"invalid_input","detail":"Bad plugin.","attr":"plugin"}`,
			answerFields{Type: "validation_error", Code: "invalid_input", Detail: "Bad plugin.", Attr: "plugin"}},
		{"message field", `{"message":"nope"}`, answerFields{Detail: "nope"}},
		{"field errors", `{"order":["A valid integer is required."],"name":["Too long."]}`,
			answerFields{Detail: "Too long.", Attr: "name"}},
		{"non-field errors", `{"non_field_errors":["Conflict."]}`, answerFields{Detail: "Conflict."}},
		{"unknown object", `{ "x" : 1 }`, answerFields{Detail: `{"x":1}`}},
		{"list of strings", `["one","two"]`, answerFields{Detail: "one; two"}},
		{"JSON string", `"plain"`, answerFields{Detail: "plain"}},
		{"html", "<html><head><title>t</title></head><body><h1>502  Bad\nGateway</h1><script>x()</script></body></html>",
			answerFields{Detail: "502 Bad Gateway"}},
		{"text", "upstream\tconnect error", answerFields{Detail: "upstream connect error"}},
	}
	for _, tc := range cases {
		if got := decodeAnswer([]byte(tc.body)); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestExcerptCutsOnRunes(t *testing.T) {
	if got := excerpt("ééééé", 3); got != "ééé…" {
		t.Fatalf("got %q", got)
	}
	if got := excerpt("short", 10); got != "short" {
		t.Fatalf("got %q", got)
	}
	if got := answerLine(strings.Repeat("word ", 100)); len([]rune(got)) > hintLength+1 || !strings.HasSuffix(got, "…") {
		t.Fatalf("a long line is cut to %d runes and marked: got %d runes", hintLength, len([]rune(got)))
	}
}
