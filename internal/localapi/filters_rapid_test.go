package localapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// A generated test of filters: random values of every shape, each built
// with what the service makes of it (computed piece by piece from the
// serializer's rules, not by the server's code), sent as JSON or in a
// form, to create or update. A valid value is stored in its normalised
// form, which every read answers and which, sent again, is stored
// unchanged; an invalid one is a 400 naming filters whose code is the
// serializer's; one PostgreSQL cannot store is a 500. A refusal changes
// nothing.

// genRefusals is whether the value being generated may be one the
// service refuses: drawn for each value, so that about half of them are
// valid all through (checks run one at a time).
var genRefusals bool

// drawCase draws a case in [0, n) in which the first refusals cases are
// refusals, drawn only when genRefusals.
func drawCase(t *rapid.T, label string, refusals, n int) int {
	if !genRefusals {
		return rapid.IntRange(refusals, n-1).Draw(t, label)
	}
	return rapid.IntRange(0, n-1).Draw(t, label)
}

// genOut is a generated JSON value: its text, and what the service makes
// of it.
type genOut struct {
	text string // the JSON text sent
	want string // the JSON text stored, when valid
	// codes is, for a field of an entry, the text of its DRF error codes
	// (['blank'], {0: ['not_a_dict']}); "" when valid.
	codes string
	// unstorable is a valid value PostgreSQL's jsonb cannot hold.
	unstorable bool
}

// wantErr is the expected refusal of a filters value (detail: when
// known).
type wantErr struct{ attr, code, detail string }

// jsonText writes a Go value as the server does (compact, no HTML
// escaping).
func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return strings.TrimRight(buf.String(), "\n")
}

// Characters strings are made of: plain, JSON-special, Python spaces
// (which strip removes: U+001C..U+001F and U+0085 too), non-BMP, and
// others that Go and Python see differently.
var genRunes = []rune{'a', 'Z', '7', '$', '_', ' ', '\t', '\n', '\r', '\v', '\f', 0x1c, 0x1f, 0x85, 0xa0, 0x2003, 0x3000,
	'"', '\\', '/', 0x7f, 'é', 0x200b, 0x2028, 0xfeff, 0x1f600, 0x10ffff, 0x0663}

// genString is a JSON string: its text, its code points (surrogates kept
// as Python keeps lone ones) and whether it holds a null character or a
// lone surrogate (bad is whether they may be drawn).
func genString(t *rapid.T, label string, bad bool) (text string, units []rune) {
	n := rapid.IntRange(0, 8).Draw(t, label+"_len")
	var sb strings.Builder
	sb.WriteByte('"')
	loneBefore := false
	for i := range n {
		kind := rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("%s_%d_kind", label, i))
		if bad && kind == 0 && !loneBefore {
			// A lone surrogate (never right after another, which could
			// pair with it).
			r := rapid.SampledFrom([]rune{0xd800, 0xdbff, 0xdc00, 0xdfff, 0xd83d}).Draw(t, fmt.Sprintf("%s_%d_sur", label, i))
			fmt.Fprintf(&sb, `\u%04x`, r)
			units = append(units, r)
			loneBefore = true
			continue
		}
		loneBefore = false
		var r rune
		switch {
		case bad && kind == 1:
			r = 0
		case kind < 5:
			r = rapid.SampledFrom(genRunes).Draw(t, fmt.Sprintf("%s_%d_rune", label, i))
		default:
			r = rapid.Rune().Draw(t, fmt.Sprintf("%s_%d_any", label, i))
			if r >= 0xd800 && r <= 0xdfff || r == utf8.RuneError {
				r = 'x'
			}
		}
		units = append(units, r)
		escape := rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("%s_%d_esc", label, i))
		switch {
		case r == '"' || r == '\\' || r < 0x20 || escape == 0:
			if r > 0xffff {
				hi, lo := 0xd800+(r-0x10000)>>10, 0xdc00+(r-0x10000)&0x3ff
				fmt.Fprintf(&sb, `\u%04x\u%04X`, hi, lo)
			} else {
				fmt.Fprintf(&sb, `\u%04x`, r)
			}
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String(), units
}

func hasSurrogate(units []rune) bool {
	return slices.ContainsFunc(units, func(r rune) bool { return r >= 0xd800 && r <= 0xdfff })
}

// genNumber is a JSON number literal of any size and precision.
func genNumber(t *rapid.T, label string) string {
	// digits draws 1 to most digits, the first not 0 unless alone.
	digits := func(label string, most int) string {
		n := rapid.IntRange(1, most).Draw(t, label)
		var sb strings.Builder
		for i := range n {
			d := rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("%s_%d", label, i))
			if i == 0 && n > 1 && d == 0 {
				d = 1
			}
			sb.WriteByte(byte('0' + d))
		}
		return sb.String()
	}
	sign := rapid.SampledFrom([]string{"", "", "-"}).Draw(t, label+"_sign")
	switch rapid.IntRange(0, 5).Draw(t, label+"_kind") {
	case 0: // an integer, small or large
		return sign + digits(label+"_int", 45)
	case 1: // an integer near Python's 4300-digit limit
		return sign + "1" + strings.Repeat("0", rapid.IntRange(4290, 4299).Draw(t, label+"_zeros"))
	case 2: // a fraction and an exponent of any size
		lit := sign + digits(label+"_ip", 25)
		if rapid.Bool().Draw(t, label+"_frac") {
			lit += "." + digits(label+"_fp", 45)
		}
		if rapid.Bool().Draw(t, label+"_exp") {
			lit += rapid.SampledFrom([]string{"e", "E"}).Draw(t, label+"_e") +
				rapid.SampledFrom([]string{"", "+", "-"}).Draw(t, label+"_es") +
				strconv.Itoa(rapid.IntRange(0, 420).Draw(t, label+"_ev"))
		}
		return lit
	case 3: // a double's shortest text
		f := rapid.Float64().Draw(t, label+"_f")
		if math.IsInf(f, 0) || math.IsNaN(f) {
			f = 1.5
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	case 4: // an integral float
		return sign + digits(label+"_ii", 20) + ".0" + strings.Repeat("0", rapid.IntRange(0, 3).Draw(t, label+"_z"))
	default:
		return rapid.SampledFrom([]string{"0", "-0", "0.0", "-0.0", "1e400", "-1e400", "1e-400", "0.1", "1E2", "1e16", "1e15"}).Draw(t, label+"_special")
	}
}

// pyNum is a literal as Python reads it (the python package's reading is
// checked against Python in its own tests).
func pyNum(lit string) python.Number {
	n, err := python.ParseNumber(lit)
	if err != nil {
		panic(lit)
	}
	return n
}

func finite(n python.Number) bool {
	return n.IsInt() || !math.IsInf(n.Float, 0) && !math.IsNaN(n.Float)
}

// genValue is a property value of any shape.
func genValue(t *rapid.T, label string, depth int) genOut {
	kinds := 6
	if depth >= 2 {
		kinds = 4
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, label+"_kind") {
	case 0:
		lit := genNumber(t, label+"_num")
		n := pyNum(lit)
		if !finite(n) {
			return genOut{text: lit, unstorable: true}
		}
		return genOut{text: lit, want: n.String()}
	case 1:
		text, units := genString(t, label+"_str", rapid.IntRange(0, 4).Draw(t, label+"_bad") == 0)
		if hasSurrogate(units) || slices.Contains(units, 0) {
			return genOut{text: text, unstorable: true}
		}
		return genOut{text: text, want: jsonText(string(units))}
	case 2:
		v := rapid.SampledFrom([]string{"true", "false", "null"}).Draw(t, label+"_lit")
		return genOut{text: v, want: v}
	case 3:
		return genOut{text: `"` + label + `"`, want: `"` + label + `"`}
	case 4:
		n := rapid.IntRange(0, 3).Draw(t, label+"_n")
		var texts, wants []string
		out := genOut{}
		for i := range n {
			v := genValue(t, fmt.Sprintf("%s_%d", label, i), depth+1)
			texts, wants = append(texts, v.text), append(wants, v.want)
			out.unstorable = out.unstorable || v.unstorable
		}
		out.text, out.want = "["+strings.Join(texts, ", ")+"]", "["+strings.Join(wants, ",")+"]"
		return out
	default:
		return genObject(t, label, depth+1)
	}
}

// genObject is an object of distinct keys; it is stored with its keys
// sorted.
func genObject(t *rapid.T, label string, depth int) genOut {
	n := rapid.IntRange(0, 3).Draw(t, label+"_n")
	out := genOut{}
	var texts []string
	wants := map[string]string{}
	seen := map[string]bool{}
	for i := range n {
		keyText, units := genString(t, fmt.Sprintf("%s_k%d", label, i), rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("%s_kb%d", label, i)) == 0)
		if seen[fmt.Sprint(units)] {
			continue // a repeated key: Python keeps the last, as Go does; not drawn
		}
		seen[fmt.Sprint(units)] = true
		v := genValue(t, fmt.Sprintf("%s_v%d", label, i), depth)
		texts = append(texts, keyText+": "+v.text)
		out.unstorable = out.unstorable || v.unstorable
		if hasSurrogate(units) || slices.Contains(units, 0) {
			out.unstorable = true // jsonb refuses the key
			continue
		}
		wants[string(units)] = v.want
	}
	keys := make([]string, 0, len(wants))
	for k := range wants {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var members []string
	for _, k := range keys {
		members = append(members, jsonText(k)+":"+wants[k])
	}
	out.text, out.want = "{"+strings.Join(texts, ", ")+"}", "{"+strings.Join(members, ",")+"}"
	return out
}

// genNotObject is a value that is not an object (nor null).
func genNotObject(t *rapid.T, label string) (text, pyType string) {
	switch rapid.IntRange(0, 4).Draw(t, label) {
	case 0:
		return `"x"`, "str"
	case 1:
		lit := genNumber(t, label+"_num")
		if pyNum(lit).IsInt() {
			return lit, "int"
		}
		return lit, "float"
	case 2:
		return rapid.SampledFrom([]string{"true", "false"}).Draw(t, label+"_b"), "bool"
	default:
		return `[{"type": "events"}]`, "list"
	}
}

// genCharField is an entry's id (nullable false) or name: DRF's CharField.
func genCharField(t *rapid.T, label string, nullable bool) genOut {
	switch drawCase(t, label+"_kind", 2, 11) {
	case 0:
		if nullable {
			return genOut{text: "null", want: "null"}
		}
		return genOut{text: "null", codes: "['null']"}
	case 10:
		if nullable {
			return genOut{text: "null", want: "null"}
		}
		return genOut{text: `"x"`, want: `"x"`}
	case 1:
		return genOut{text: rapid.SampledFrom([]string{"true", "false", "[]", `["x"]`, "{}", `{"a": 1}`}).Draw(t, label+"_bad"), codes: "['invalid']"}
	case 2, 3:
		lit := genNumber(t, label+"_num")
		return genOut{text: lit, want: jsonText(pyNum(lit).Str())}
	default:
		text, units := genString(t, label+"_str", genRefusals && rapid.IntRange(0, 3).Draw(t, label+"_maybebad") == 0)
		start, end := 0, len(units)
		for start < end && python.IsSpace(units[start]) {
			start++
		}
		for end > start && python.IsSpace(units[end-1]) {
			end--
		}
		stripped := units[start:end]
		var codes []string
		switch {
		case len(stripped) == 0 && !genRefusals:
			return genOut{text: `"` + label + `"`, want: `"` + label + `"`} // not blank
		case len(stripped) == 0:
			return genOut{text: text, codes: "['blank']"}
		case slices.Contains(stripped, 0):
			codes = append(codes, "'null_characters_not_allowed'")
		}
		if hasSurrogate(stripped) {
			codes = append(codes, "'surrogate_characters_not_allowed'")
		}
		if codes != nil {
			return genOut{text: text, codes: "[" + strings.Join(codes, ", ") + "]"}
		}
		return genOut{text: text, want: jsonText(string(stripped))}
	}
}

// genOrder is an entry's order: DRF's IntegerField, without bounds.
func genOrder(t *rapid.T, label string) genOut {
	invalid := genOut{codes: "['invalid']"}
	switch drawCase(t, label+"_kind", 3, 6) {
	case 0:
		return genOut{text: "null", codes: "['null']"}
	case 1:
		invalid.text = rapid.SampledFrom([]string{"true", "false", "[]", "[1]", `{"a": 1}`, `"x"`, `""`, `"1.5"`, `"1e3"`, `"1__0"`, `"0x10"`, `" "`}).Draw(t, label+"_bad")
		return invalid
	case 2:
		return genOut{text: `"` + strings.Repeat("1", 1001) + `"`, codes: "['max_string_length']"}
	case 3:
		// Text of an integer: spaces, a sign, underscores, zeros after a
		// point.
		n := rapid.Int64().Draw(t, label+"_n")
		s := strconv.FormatInt(n, 10)
		if n > 0 && rapid.Bool().Draw(t, label+"_plus") {
			s = "+" + s
		}
		if rapid.Bool().Draw(t, label+"_point") {
			s += "." + strings.Repeat("0", rapid.IntRange(0, 3).Draw(t, label+"_zeros"))
		}
		pad := rapid.SampledFrom([]string{"", " ", "\\t", "\\n", "\\u00a0", "\\u001f"}).Draw(t, label+"_pad")
		return genOut{text: `"` + pad + s + pad + `"`, want: strconv.FormatInt(n, 10)}
	default:
		lit := genNumber(t, label+"_num")
		n := pyNum(lit)
		if n.IsInt() {
			return genOut{text: lit, want: n.Int.String()}
		}
		// str() of a float is an integer's text only when it is integral
		// and written without an exponent (below 1e16).
		if !finite(n) || n.Float != math.Trunc(n.Float) || math.Abs(n.Float) >= 1e16 {
			if !genRefusals {
				return genOut{text: "5.0", want: "5"}
			}
			invalid.text = lit
			return invalid
		}
		i, _ := big.NewFloat(n.Float).Int(nil)
		return genOut{text: lit, want: i.String()}
	}
}

// genProperties is an entry's properties (present false: left out).
func genProperties(t *rapid.T, label string) (present bool, out genOut) {
	switch drawCase(t, label+"_kind", 2, 7) {
	case 2:
		return false, genOut{want: "[]"}
	case 0:
		return true, genOut{text: "null", codes: "['null']"}
	case 1:
		text, _ := genNotObject(t, label+"_not")
		if strings.HasPrefix(text, "[") {
			text = `{"a": 1}`
		}
		return true, genOut{text: text, codes: "['not_a_list']"}
	default:
		n := rapid.IntRange(0, 3).Draw(t, label+"_n")
		var texts, wants, codes []string
		for i := range n {
			item := fmt.Sprintf("%s_%d", label, i)
			switch drawCase(t, item+"_kind", 2, 8) {
			case 0:
				texts = append(texts, "null")
				codes = append(codes, fmt.Sprintf("%d: ['null']", i))
			case 1:
				text, _ := genNotObject(t, item+"_not")
				texts = append(texts, text)
				codes = append(codes, fmt.Sprintf("%d: ['not_a_dict']", i))
			default:
				v := genObject(t, item, 0)
				texts, wants = append(texts, v.text), append(wants, v.want)
				out.unstorable = out.unstorable || v.unstorable
			}
		}
		out.text = "[" + strings.Join(texts, ", ") + "]"
		if codes != nil {
			return true, genOut{text: out.text, codes: "{" + strings.Join(codes, ", ") + "}"}
		}
		out.want = "[" + strings.Join(wants, ",") + "]"
		return true, out
	}
}

// genEntry is an entry of events or actions; codes is its error codes'
// text, "{}" when valid.
func genEntry(t *rapid.T, label string) genOut {
	switch drawCase(t, label+"_shape", 2, 15) {
	case 0:
		return genOut{text: "null", codes: "['null']"}
	case 1:
		text, _ := genNotObject(t, label+"_not")
		return genOut{text: text, codes: "{'non_field_errors': ['invalid']}"}
	}
	type field struct {
		name string
		out  genOut
	}
	var fields []field // in the serializer's order
	switch drawCase(t, label+"_type", 3, 10) {
	case 0:
		fields = append(fields, field{"type", genOut{codes: "['required']"}})
	case 1:
		fields = append(fields, field{"type", genOut{text: "null", codes: "['null']"}})
	case 2:
		bad := rapid.SampledFrom([]string{`"event"`, `"Events"`, `""`, `" events"`, `1`, `1.5`, `true`, `["events"]`, `{"type": "events"}`}).Draw(t, label+"_badtype")
		fields = append(fields, field{"type", genOut{text: bad, codes: "['invalid_choice']"}})
	default:
		v := rapid.SampledFrom([]string{"events", "actions"}).Draw(t, label+"_typev")
		fields = append(fields, field{"type", genOut{text: `"` + v + `"`, want: `"` + v + `"`}})
	}
	if rapid.Bool().Draw(t, label+"_hasid") {
		fields = append(fields, field{"id", genCharField(t, label+"_id", false)})
	}
	if rapid.IntRange(0, 2).Draw(t, label+"_hasname") == 0 {
		fields = append(fields, field{"name", genCharField(t, label+"_name", true)})
	}
	if rapid.IntRange(0, 2).Draw(t, label+"_hasorder") == 0 {
		fields = append(fields, field{"order", genOrder(t, label+"_order")})
	}
	present, props := genProperties(t, label+"_props")
	fields = append(fields, field{"properties", props})

	out := genOut{}
	var members, wants, codes []string
	for _, f := range fields {
		if f.out.text != "" && (f.name != "properties" || present) {
			members = append(members, `"`+f.name+`": `+f.out.text)
		}
		if f.out.codes != "" {
			codes = append(codes, "'"+f.name+"': "+f.out.codes)
		} else {
			wants = append(wants, `"`+f.name+`":`+f.out.want)
		}
		out.unstorable = out.unstorable || f.out.unstorable
	}
	// Keys the serializer drops, with values of any kind.
	for i := range rapid.IntRange(0, 2).Draw(t, label+"_extra") {
		name := rapid.SampledFrom([]string{"math", "custom_name", "Type", "ID", "properties ", "uuid"}).Draw(t, fmt.Sprintf("%s_x%d", label, i))
		v := genValue(t, fmt.Sprintf("%s_xv%d", label, i), 0)
		members = append(members, jsonText(name)+": "+v.text)
	}
	members = rapid.Permutation(members).Draw(t, label+"_order_of_keys")
	out.text = "{" + strings.Join(members, ", ") + "}"
	out.codes = "{" + strings.Join(codes, ", ") + "}"
	if codes == nil {
		out.want = "{" + strings.Join(wants, ",") + "}"
	}
	return out
}

// genFilters is a filters value and what the service makes of it: an
// error, a value it cannot store, or the stored text.
func genFilters(t *rapid.T) (out genOut, refused *wantErr) {
	const nonField = "filters__non_field_errors"
	switch drawCase(t, "shape", 2, 30) {
	case 0:
		return genOut{text: "null"}, &wantErr{nonField, "null", "No data provided"}
	case 1:
		text, typ := genNotObject(t, "top_not")
		return genOut{text: text}, &wantErr{nonField, "invalid_input", "Invalid data. Expected a dictionary, but got " + typ + "."}
	}
	var members, wants []string
	for _, key := range []string{"events", "actions"} {
		switch drawCase(t, key+"_shape", 2, 10) {
		case 9:
			continue // left out
		case 0:
			members = append(members, `"`+key+`": null`)
			if refused == nil {
				refused = &wantErr{"filters__" + key, "null", "This field may not be null."}
			}
			continue
		case 1:
			text, typ := genNotObject(t, key+"_not")
			if typ == "list" {
				text, typ = `{"type": "events"}`, "dict"
			}
			members = append(members, `"`+key+`": `+text)
			if refused == nil {
				refused = &wantErr{"filters__" + key + "__non_field_errors", "not_a_list", `Expected a list of items but got type "` + typ + `".`}
			}
			continue
		}
		n := rapid.IntRange(0, 3).Draw(t, key+"_n")
		var texts, entryWants []string
		firstCodes, failed := "", false
		for i := range n {
			e := genEntry(t, fmt.Sprintf("%s_%d", key, i))
			texts = append(texts, e.text)
			if i == 0 {
				firstCodes = e.codes
			}
			if e.want == "" {
				failed = true
			}
			entryWants = append(entryWants, e.want)
			out.unstorable = out.unstorable || e.unstorable
		}
		members = append(members, `"`+key+`": [`+strings.Join(texts, ", ")+`]`)
		if failed && refused == nil {
			refused = &wantErr{attr: "filters__" + key, code: firstCodes}
		}
		wants = append(wants, `"`+key+`":[`+strings.Join(entryWants, ",")+`]`)
	}
	if rapid.Bool().Draw(t, "fta") {
		values := []string{"true", "false", `"true"`, `"False"`, `"t"`, `"N"`, `"yes"`, `"off"`, `"1"`, `"0"`, "1", "0", "1.0", "0.0", "1e0", "-0.0"}
		if genRefusals {
			values = append(values, "null", `"maybe"`, "2", "0.5", `""`, "[]", "{}", `"yes "`, `"1.0"`)
		}
		v := rapid.SampledFrom(values).Draw(t, "fta_v")
		members = append(members, `"filter_test_accounts": `+v)
		want, ok := map[string]string{"true": "true", `"true"`: "true", `"t"`: "true", `"yes"`: "true", `"1"`: "true", "1": "true", "1.0": "true", "1e0": "true",
			"false": "false", `"False"`: "false", `"N"`: "false", `"off"`: "false", `"0"`: "false", "0": "false", "0.0": "false", "-0.0": "false"}[v]
		switch {
		case refused != nil:
		case v == "null":
			refused = &wantErr{"filters__filter_test_accounts", "null", "This field may not be null."}
		case !ok:
			refused = &wantErr{"filters__filter_test_accounts", "invalid_input", "Must be a valid boolean."}
		default:
			wants = append(wants, `"filter_test_accounts":`+want)
		}
	}
	for i := range rapid.IntRange(0, 2).Draw(t, "extra") {
		v := genValue(t, fmt.Sprintf("top_x%d", i), 0)
		members = append(members, fmt.Sprintf(`"other%d": %s`, i, v.text))
	}
	members = rapid.Permutation(members).Draw(t, "order_of_keys")
	out.text = "{" + strings.Join(members, ", ") + "}"
	out.want = "{" + strings.Join(wants, ",") + "}"
	return out, refused
}

func TestFiltersGenerated(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	base := a.do(http.MethodPost, path(1, tr), full, `{"plugin": 2, "order": 1, "filters": {"events": [{"type": "events", "id": "base"}]}}`).want(t, 201)
	p := path(1, tr, id(base.object(t)))
	filtersOf := func(t *rapid.T, r *response) string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(r.body, &m); err != nil {
			t.Fatalf("not a record: %s", r.body)
		}
		return string(m["filters"])
	}
	count := func() string {
		var page struct{ Count json.Number }
		_ = json.Unmarshal(a.do(http.MethodGet, path(1, tr), full, nil).body, &page)
		return string(page.Count)
	}
	rapid.Check(t, func(t *rapid.T) {
		genRefusals = rapid.Bool().Draw(t, "refusals")
		f, refused := genFilters(t)
		via := rapid.SampledFrom([]string{"PATCH", "PATCH form", "POST", "POST form", "PUT"}).Draw(t, "via")
		before, countBefore := a.do(http.MethodGet, p, full, nil).body, count()
		var r *response
		switch via {
		case "PATCH":
			r = a.do(http.MethodPatch, p, full, `{"filters": `+f.text+`}`)
		case "PUT":
			r = a.do(http.MethodPut, p, full, `{"plugin": 2, "order": 1, "filters": `+f.text+`}`)
		case "PATCH form":
			r = a.form(http.MethodPatch, p, full, map[string]string{"filters": f.text})
		case "POST":
			r = a.do(http.MethodPost, path(1, tr), full, `{"plugin": 2, "order": 1, "filters": `+f.text+`}`)
		case "POST form":
			r = a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "2", "order": "1", "filters": f.text})
		}
		unchanged := func() {
			if after := a.do(http.MethodGet, p, full, nil).body; !bytes.Equal(after, before) {
				t.Fatalf("a refused write changed the record:\n%s\nwas\n%s", after, before)
			}
			if c := count(); c != countBefore {
				t.Fatalf("a refused create stored a record: count %s, was %s", c, countBefore)
			}
		}
		switch {
		case refused != nil:
			var env struct{ Type, Code, Detail, Attr string }
			if r.status != 400 || json.Unmarshal(r.body, &env) != nil || env.Type != "validation_error" ||
				!strings.HasPrefix(env.Attr, "filters") || env.Attr != refused.attr || env.Code != refused.code ||
				refused.detail != "" && env.Detail != refused.detail {
				t.Fatalf("%s %s: %d %s\nwant 400 attr %s code %s", via, f.text, r.status, r.body, refused.attr, refused.code)
			}
			unchanged()
		case f.unstorable:
			if r.status != 500 || !bytes.Contains(r.body, []byte(`"code":"error"`)) {
				t.Fatalf("%s %s: %d %s\nwant 500", via, f.text, r.status, r.body)
			}
			unchanged()
		default:
			if r.status != 200 && r.status != 201 {
				t.Fatalf("%s %s: %d %s\nwant stored %s", via, f.text, r.status, r.body, f.want)
			}
			if got := filtersOf(t, r); got != f.want {
				t.Fatalf("%s %s stored\n%s\nwant\n%s", via, f.text, got, f.want)
			}
			var rec struct{ ID int64 }
			_ = json.Unmarshal(r.body, &rec)
			at := path(1, tr, rec.ID)
			if got := filtersOf(t, a.do(http.MethodGet, at, full, nil)); got != f.want {
				t.Fatalf("retrieve after %s %s:\n%s\nwant\n%s", via, f.text, got, f.want)
			}
			// What reads back, sent again (as JSON or in a form), is
			// stored unchanged.
			if got := filtersOf(t, a.do(http.MethodPatch, at, full, `{"filters": `+f.want+`}`)); got != f.want {
				t.Fatalf("sent back: %s, want %s", got, f.want)
			}
			if got := filtersOf(t, a.form(http.MethodPatch, at, full, map[string]string{"filters": f.want})); got != f.want {
				t.Fatalf("sent back in a form: %s, want %s", got, f.want)
			}
			if via == "POST" || via == "POST form" {
				// Keep the list short: lists never show deleted configs.
				a.do(http.MethodPatch, at, full, `{"deleted": true}`)
			}
		}
	})
}
