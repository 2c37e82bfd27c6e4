package configresource

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestStoredText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"GeoIP\n": "GeoIP", "\u3000\u001c GeoIP \u2029": "GeoIP", " \t\n": "", "": "", "a\n b": "a\n b",
	} {
		if got := Stored(in); got != want {
			t.Errorf("Stored(%q) = %q, want %q", in, got, want)
		}
		if IsBlank(in) != (want == "") {
			t.Errorf("IsBlank(%q) = %v", in, IsBlank(in))
		}
	}
	if !SameText("GeoIP\n", "  GeoIP") || SameText("GeoIP", "geoip") || !SameText("", "\u00a0") {
		t.Error("SameText does not compare as the service stores")
	}
}

func TestTextFromAPI(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	val := types.StringValue
	for _, tt := range []struct {
		what      string
		got       *string
		prior     types.String
		keepBlank bool
		want      types.String
	}{
		{"stored stripped: the configured text", str("GeoIP"), val("GeoIP\n"), false, val("GeoIP\n")},
		{"changed on the service: the service's", str("Other"), val("GeoIP\n"), false, val("Other")},
		{"nothing before: the service's", str("GeoIP"), types.StringNull(), false, val("GeoIP")},
		{"unknown before (a create): the service's", nil, types.StringUnknown(), false, types.StringNull()},
		{"blank, the service shows null: the blank", nil, val(" "), false, val(" ")},
		{`blank, the service shows "": the blank`, str(""), val(""), false, val("")},
		{"blank, the plugin's text, kept", str("GeoIP"), val(""), true, val("")},
		{"blank, the plugin's text, not kept", str("GeoIP"), val(""), false, val("GeoIP")},
		// The plugin's text, which an upgrade removed: "", which a
		// configured blank can plan against.
		{"text, the service shows null", nil, val("GeoIP"), true, val("")},
	} {
		if got := TextFromAPI(tt.got, tt.prior, tt.keepBlank); !got.Equal(tt.want) {
			t.Errorf("%s: %v, want %v", tt.what, got, tt.want)
		}
	}
}
