package localapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// Numbers in config and filters are read as Python's json reads them and
// stored as json.dumps writes them: integers exact, other numbers doubles
// in their shortest form.
const (
	sentNumbers   = `{"a": 1.50, "b": 1E2, "c": 123456789012345678901234567890, "d": 0.3333333333333333333333333333333333333333, "e": 1e300, "f": [1e-5, -0.0, -0, 0.1], "g": 1e-400, "h": 9007199254740993.0, "i": "1.50", "j": 7}`
	storedNumbers = `{"a":1.5,"b":100.0,"c":123456789012345678901234567890,"d":0.3333333333333333,"e":1e+300,"f":[1e-05,-0.0,0,0.1],"g":0.0,"h":9007199254740992.0,"i":"1.50","j":7}`
)

func TestConfigNumbersStored(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	// GeoIP: api_key is secret, locale is not; keys are not checked.
	sent := `{"api_key": "s", "locale": ` + sentNumbers + `, "n": 1.0}`
	want := `{"api_key":"` + mask + `","locale":` + storedNumbers + `,"n":1.0}`
	r := a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "enabled": "true", "config": sent}).want(t, 201)
	if got := rawField(t, r, "config"); got != want {
		t.Fatalf("create\n%s\nwant\n%s", got, want)
	}
	cfgID := id(r.object(t))
	p := path(1, tr, cfgID)
	if got := rawField(t, a.do(http.MethodGet, p, full, nil).want(t, 200), "config"); got != want {
		t.Errorf("retrieve\n%s\nwant\n%s", got, want)
	}
	page := a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200)
	if !strings.Contains(string(page.body), `"config":`+want) {
		t.Errorf("list %s\nwant config %s", page.body, want)
	}
	arranged := a.do(http.MethodPatch, path(1, tr, "rearrange"), full, fmt.Sprintf(`{"orders": {"%d": 5}}`, cfgID)).want(t, 200)
	if !strings.Contains(string(arranged.body), `"config":`+want) {
		t.Errorf("rearrange %s\nwant config %s", arranged.body, want)
	}
	stored, err := a.srv.StoredConfig(1, cfgID)
	if err != nil || string(stored) != `{"api_key":"s","locale":`+storedNumbers+`,"n":1.0}` {
		t.Errorf("stored %s (%v)", stored, err)
	}
	// Sending the stored form again stores the same.
	if got := rawField(t, a.form(http.MethodPatch, p, full, map[string]string{"config": `{"locale": ` + storedNumbers + `, "n": 1.0}`}).want(t, 200), "config"); got != want {
		t.Errorf("sent again\n%s\nwant\n%s", got, want)
	}
	// NaN and Infinity are numbers to json.loads, but no column holds them.
	a.form(http.MethodPatch, p, full, map[string]string{"config": `{"locale": NaN}`}).
		wantError(t, 500, "server_error", "error", "A server error occurred.", "")

	// A hog function made at generation 2 is made of the stored form: the
	// Taxonomy template's choice input takes any value.
	if err := a.srv.SetGeneration(2); err != nil {
		t.Fatal(err)
	}
	a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "5", "order": "1",
		"config": `{"defaultNamingConvention": ` + sentNumbers + `}`}).want(t, 201)
	made := a.srv.HogFunctions()
	if len(made) != 1 || !strings.Contains(string(made[0].Inputs), `"defaultNamingConvention":{"value":`+storedNumbers+`,"order":0}`) {
		t.Errorf("hog function of a generation 2 create: %+v", made)
	}
}

func TestTextNumbersAsPythonStr(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for sent, want := range map[string]string{
		`1.50`: "1.5", `1e20`: "1e+20", `1E2`: "100.0", `1e400`: "inf", `-1e400`: "-inf", `5`: "5", `-0.0`: "-0.0",
		`123456789012345678901234567890`: "123456789012345678901234567890", `0.1`: "0.1", `1e-5`: "1e-05",
	} {
		rec := a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1, "name": `+sent+`, "description": `+sent+`}`).want(t, 201).object(t)
		if rec["name"] != want || rec["description"] != want {
			t.Errorf("name and description %s: %v, %v; want %q", sent, rec["name"], rec["description"], want)
		}
	}
}

// A value PostgreSQL cannot store (an infinite number, which Python reads
// 1e400 as; NaN; a null character or a lone surrogate, which jsonb
// refuses) passes validation and fails the save: 500, nothing changes.
func TestUnstorableValues500(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1",
		"filters": `{"events": [{"type": "events"}]}`, "config": `{"locale": "en"}`}).want(t, 201).object(t)
	p := path(1, tr, id(rec))
	before := a.do(http.MethodGet, p, full, nil).want(t, 200).body
	bad := func(r *response) {
		t.Helper()
		r.wantError(t, 500, "server_error", "error", "A server error occurred.", "")
	}
	for _, props := range []string{`{"v": 1e400}`, `{"v": -1e400}`, `{"v": [1, {"w": 1e999}]}`, `{"v": "a\u0000b"}`, `{"v": "\ud800"}`, `{"\udfff": 1}`, `{"a\u0000": 1}`} {
		filters := `{"events": [{"type": "events", "properties": [` + props + `]}]}`
		bad(a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1, "filters": `+filters+`}`))
		bad(a.do(http.MethodPatch, p, full, `{"name": "changed", "filters": `+filters+`}`))
		bad(a.form(http.MethodPatch, p, full, map[string]string{"name": "changed", "filters": filters}))
		bad(a.form(http.MethodPatch, p, full, map[string]string{"name": "changed", "config": props}))
		bad(a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "config": props}))
	}
	for _, cfg := range []string{`{"v": NaN}`, `{"v": Infinity}`, `{"v": [-Infinity]}`} {
		bad(a.form(http.MethodPatch, p, full, map[string]string{"name": "changed", "config": cfg}))
		bad(a.form(http.MethodPatch, p, full, map[string]string{"filters": `{"events": [{"type": "events", "properties": [` + cfg + `]}]}`}))
	}
	// Validation answers first; a missing record is 404.
	a.do(http.MethodPatch, p, full, `{"order": "x", "filters": {"events": [{"type": "events", "properties": [{"v": 1e400}]}]}}`).
		wantError(t, 400, "validation_error", "invalid_input", "A valid integer is required.", "order")
	a.do(http.MethodPatch, path(1, tr, 999999), full, `{"filters": {"events": [{"type": "events", "properties": [{"v": 1e400}]}]}}`).
		wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	if after := a.do(http.MethodGet, p, full, nil).want(t, 200).body; string(after) != string(before) {
		t.Errorf("a failed save changed the record:\n%s\nwas\n%s", after, before)
	}
	if n := num(a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200).object(t), "count"); n != 1 {
		t.Errorf("failed creates stored records: count %d", n)
	}
	if log, err := a.srv.Activity(1, id(rec)); err != nil || len(log) != 1 {
		t.Errorf("activity after failed saves: %v (%v)", log, err)
	}
	// Where nothing is stored, anything goes: dropped filter keys, a JSON
	// body's config (read-only), an id (stored as text).
	r := a.do(http.MethodPatch, p, full, `{"config": {"v": 1e400}, "x": 1e400, "filters": {"x": 1e400, "events": [{"type": "events", "id": 1e400, "math": -1e400}]}}`).want(t, 200)
	if got := rawField(t, r, "filters"); got != `{"events":[{"type":"events","id":"inf","properties":[]}]}` {
		t.Errorf("filters %s", got)
	}

	// Generation 2: filters are ignored; a create's hog function cannot be
	// saved (but a plugin without a template is refused first).
	if err := a.srv.SetGeneration(2); err != nil {
		t.Fatal(err)
	}
	a.do(http.MethodPatch, p, full, `{"filters": {"events": [{"type": "events", "properties": [{"v": 1e400}]}]}}`).want(t, 200)
	bad(a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "config": `{"locale": 1e400}`}))
	a.form(http.MethodPost, path(1, ia), full, map[string]string{"plugin": "4", "order": "1", "config": `{"locale": 1e400}`}).
		wantError(t, 400, "validation_error", "invalid_input", localapi.DetailCreationDisabled, "")
	if made := a.srv.HogFunctions(); len(made) != 0 {
		t.Errorf("hog functions made: %+v", made)
	}
}

// Python refuses an integer literal of more than 4300 digits (its
// int_max_str_digits): a JSON body holding one anywhere is a parse error.
func TestIntegerDigitLimit(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	long := "1" + strings.Repeat("0", 4300)
	r := a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1, "ignored": [`+long+`]}`)
	r.wantError(t, 400, "validation_error", "parse_error",
		"JSON parse error - Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit", "")
	// 4300 digits, with a sign, are read; a float has no such limit.
	most := "-9" + strings.Repeat("0", 4299)
	r = a.do(http.MethodPost, path(1, tr), full, `{"plugin": 1, "order": 1, "x": `+long+`.0, "filters": {"events": [{"type": "events", "properties": [{"v": `+most+`}]}]}}`).want(t, 201)
	if got := rawField(t, r, "filters"); got != `{"events":[{"type":"events","properties":[{"v":`+most+`}]}]}` {
		t.Errorf("filters %.80s…", got)
	}
	// In a form field it is not JSON.
	a.form(http.MethodPatch, path(1, tr, rawField(t, r, "id")), full, map[string]string{"config": `{"v": ` + long + `}`}).
		wantError(t, 400, "validation_error", "invalid_input", "Value must be valid JSON.", "config")
}
