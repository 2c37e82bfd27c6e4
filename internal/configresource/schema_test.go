package configresource

import "testing"

func TestAttrPath(t *testing.T) {
	t.Parallel()
	for attr, want := range map[string]string{
		"name": "name", "filters__events__0__type": "filters", "plugin": "plugin", "order": "order",
	} {
		p, ok := attrPath(attr)
		if !ok || p.String() != want {
			t.Errorf("attrPath(%q) = %v, %v; want %s", attr, p, ok, want)
		}
	}
	for _, attr := range []string{"", "non_field_errors", "team"} {
		if _, ok := attrPath(attr); ok {
			t.Errorf("attrPath(%q) should not map", attr)
		}
	}
}
