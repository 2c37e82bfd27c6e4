package answertext

import (
	"strings"
	"testing"
)

// The shapes an error body comes in, each read into the fields it carries.
// The client's tests cover the same through HTTP answers (errors_test.go).
func TestDecode(t *testing.T) {
	cases := []struct {
		name, body string
		want       Fields
	}{
		{"empty", "  ", Fields{}},
		{"envelope", `{"type":"validation_error","code":"invalid_input","detail":"Bad plugin.","attr":"plugin"}`,
			Fields{Type: "validation_error", Code: "invalid_input", Detail: "Bad plugin.", Attr: "plugin"}},
		{"message field", `{"message":"nope"}`, Fields{Detail: "nope"}},
		{"field errors", `{"order":["A valid integer is required."],"name":["Too long."]}`,
			Fields{Detail: "Too long.", Attr: "name"}},
		{"non-field errors", `{"non_field_errors":["Conflict."]}`, Fields{Detail: "Conflict."}},
		{"unknown object", `{ "x" : 1 }`, Fields{Detail: `{"x":1}`}},
		{"list of strings", `["one","two"]`, Fields{Detail: "one; two"}},
		{"JSON string", `"plain"`, Fields{Detail: "plain"}},
		{"html", "<html><head><title>t</title></head><body><h1>502  Bad\nGateway</h1><script>x()</script></body></html>",
			Fields{Detail: "502 Bad Gateway"}},
		{"text", "upstream\tconnect error", Fields{Detail: "upstream connect error"}},
	}
	for _, tc := range cases {
		if got := Decode([]byte(tc.body)); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestExcerptCutsOnRunes(t *testing.T) {
	if got := Excerpt("ééééé", 3); got != "ééé…" {
		t.Fatalf("got %q", got)
	}
	if got := Excerpt("short", 10); got != "short" {
		t.Fatalf("got %q", got)
	}
	if got := Line(strings.Repeat("word ", 100)); len([]rune(got)) > HintLength+1 || !strings.HasSuffix(got, "…") {
		t.Fatalf("a long line is cut to %d runes and marked: got %d runes", HintLength, len([]rune(got)))
	}
}
