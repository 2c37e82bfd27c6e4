package localapi_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestTextIsStripped: name and description are stripped as Python's
// str.strip() does (the notes' Records, "Text is trimmed"), Unicode spaces
// and the information separators included; whitespace alone is stored as
// "" and reads back as the plugin's.
func TestTextIsStripped(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, c := range collections {
		t.Run(c.name, func(t *testing.T) {
			p := pluginByID(c.plugin)
			rec := a.create(1, c.name, full, map[string]any{"plugin": c.plugin, "order": 1,
				"name": "\u3000\x1c GeoIP lookup\u00a0\n", "description": "Enrich events.\n\t\u2029"})
			if rec["name"] != "GeoIP lookup" || rec["description"] != "Enrich events." {
				t.Errorf("created %q / %q, want the stripped text", rec["name"], rec["description"])
			}
			// Inner whitespace and characters Python does not strip stay.
			upd := a.do(http.MethodPatch, path(1, c.name, id(rec)), full, map[string]any{"name": "\u200bGeo\n IP\u200b"}).want(t, 200).object(t)
			if upd["name"] != "\u200bGeo\n IP\u200b" {
				t.Errorf("name %q: only whitespace at either end is stripped", upd["name"])
			}
			// Whitespace alone: stored as "", shown as the plugin's.
			blank := a.do(http.MethodPatch, path(1, c.name, id(rec)), full, map[string]any{"name": " \n\t\u3000", "description": "\x1f"}).want(t, 200).object(t)
			if blank["name"] != *p.Name || blank["description"] != *p.Description {
				t.Errorf("blank text shows %q / %q, want the plugin's %q / %q", blank["name"], blank["description"], *p.Name, *p.Description)
			}
			// The same through a multipart form.
			form := a.form(http.MethodPatch, path(1, c.name, id(rec)), full, map[string]string{"name": " Formed\n"}).want(t, 200).object(t)
			if form["name"] != "Formed" {
				t.Errorf("form name %q, want it stripped", form["name"])
			}
		})
	}
}

// TestTextChecks: lengths count characters of the stripped text, then null
// characters and lone surrogates are refused, in DRF's CharField order
// (max_length, null_characters_not_allowed,
// surrogate_characters_not_allowed); the first failing check answers.
func TestTextChecks(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	long := func(n int) string { return strings.Repeat("é", n) }
	// 400 characters (800 bytes) and whitespace around them are a valid name.
	rec := a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1,
		"name": "\n " + long(400) + "\u3000", "description": "\t" + long(1000) + "\n"})
	if rec["name"] != long(400) || rec["description"] != long(1000) {
		t.Errorf("the longest texts were not stored stripped")
	}
	for _, c := range []struct {
		name, body, code, detail, attr string
	}{
		{"401 characters", `{"plugin": 1, "order": 1, "name": "` + long(401) + `"}`,
			"max_length", "Ensure this field has no more than 400 characters.", "name"},
		{"1001 characters", `{"plugin": 1, "order": 1, "description": " ` + long(1001) + ` "}`,
			"max_length", "Ensure this field has no more than 1000 characters.", "description"},
		{"a null character", `{"plugin": 1, "order": 1, "name": "a\u0000b"}`,
			"null_characters_not_allowed", "Null characters are not allowed.", "name"},
		{"only a null character", `{"plugin": 1, "order": 1, "description": "\u0000"}`,
			"null_characters_not_allowed", "Null characters are not allowed.", "description"},
		{"too long before null", `{"plugin": 1, "order": 1, "name": "\u0000` + long(400) + `"}`,
			"max_length", "Ensure this field has no more than 400 characters.", "name"},
		{"a lone high surrogate", `{"plugin": 1, "order": 1, "name": "a\ud800b"}`,
			"surrogate_characters_not_allowed", "Surrogate characters are not allowed: U+D800.", "name"},
		{"a lone low surrogate", `{"plugin": 1, "order": 1, "description": "\uDC01"}`,
			"surrogate_characters_not_allowed", "Surrogate characters are not allowed: U+DC01.", "description"},
		{"a high surrogate before another escape", `{"plugin": 1, "order": 1, "name": "\ud83d\u0041"}`,
			"surrogate_characters_not_allowed", "Surrogate characters are not allowed: U+D83D.", "name"},
		{"null before surrogate", `{"plugin": 1, "order": 1, "name": "\u0000\ud800"}`,
			"null_characters_not_allowed", "Null characters are not allowed.", "name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a.do(http.MethodPost, path(1, tr), full, c.body).wantError(t, 400, "validation_error", c.code, c.detail, c.attr)
		})
	}
	// A surrogate pair is one character; an escaped backslash is no escape.
	pair := a.create(1, tr, full, `{"plugin": 1, "order": 1, "name": "\ud83d\ude00", "description": "\\ud800"}`)
	if pair["name"] != "😀" || pair["description"] != `\ud800` {
		t.Errorf("name %q, description %q", pair["name"], pair["description"])
	}
}

// TestPluginTextForms: a plugin's own name and description may be text, ""
// or null (seeded plugins 5 to 7, in both collections), and a config that
// has none shows the plugin's as it is (`name or plugin.name`).
func TestPluginTextForms(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, c := range []struct {
		coll              string
		plugin            int64
		name, description any
	}{
		{tr, 5, "Taxonomy Standardizer", ""},
		{tr, 6, "", nil},
		{ia, 7, nil, ""},
	} {
		rec := a.create(1, c.coll, full, map[string]any{"plugin": c.plugin, "order": 1})
		got := a.do(http.MethodGet, path(1, c.coll, id(rec)), full, nil).want(t, 200).object(t)
		info := as[map[string]any](t, got["plugin_info"])
		for _, v := range []map[string]any{rec, got, info} {
			if v["name"] != c.name || v["description"] != c.description {
				t.Errorf("plugin %d: name %#v, description %#v; want %#v, %#v", c.plugin, v["name"], v["description"], c.name, c.description)
			}
		}
		// The config's own text wins; set back to "" or null, the plugin's shows again.
		own := a.do(http.MethodPatch, path(1, c.coll, id(rec)), full, map[string]any{"name": "mine", "description": "ours"}).want(t, 200).object(t)
		if own["name"] != "mine" || own["description"] != "ours" {
			t.Errorf("plugin %d: own text %v / %v", c.plugin, own["name"], own["description"])
		}
		back := a.do(http.MethodPatch, path(1, c.coll, id(rec)), full, map[string]any{"name": "", "description": nil}).want(t, 200).object(t)
		if back["name"] != c.name || back["description"] != c.description {
			t.Errorf("plugin %d: back to the plugin's: %#v / %#v", c.plugin, back["name"], back["description"])
		}
	}
}

// TestObjectFormSchema: an older plugin's config_schema is an object by
// key, served as stored; the service finds no secret key in it, so apiKey
// is shown as set and an update that leaves it out drops it.
func TestObjectFormSchema(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	for _, c := range []struct {
		coll   string
		plugin int64
	}{{tr, 8}, {ia, 9}} {
		created := a.form(http.MethodPost, path(1, c.coll), full, map[string]string{
			"plugin": strconv.FormatInt(c.plugin, 10), "order": "1", "config": `{"apiKey": "k-123", "other": "x"}`,
		}).want(t, 201).object(t)
		info := as[map[string]any](t, created["plugin_info"])
		schema := as[map[string]any](t, info["config_schema"])
		if key := as[map[string]any](t, schema["apiKey"]); key["secret"] != true || key["key"] != nil {
			t.Errorf("plugin %d: config_schema served as %v", c.plugin, schema)
		}
		if cfg := as[map[string]any](t, created["config"]); cfg["apiKey"] != "k-123" {
			t.Errorf("plugin %d: apiKey shown as %v; the object form masks nothing", c.plugin, cfg["apiKey"])
		}
		upd := a.form(http.MethodPatch, path(1, c.coll, id(created)), full, map[string]string{"config": `{"other": "y"}`}).want(t, 200).object(t)
		if cfg := as[map[string]any](t, upd["config"]); len(cfg) != 1 || cfg["other"] != "y" {
			t.Errorf("plugin %d: config after an update without apiKey: %v (nothing is kept)", c.plugin, cfg)
		}
	}
}
