package scenario

import (
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"pgregory.net/rapid"
)

// Config is the configuration of one config resource, as a user writes it:
// nil is an argument left out; filters and settings are JSON text.
type Config struct {
	Kind          string
	ProjectID     *string
	Plugin        int64
	Enabled       *bool
	Order         *int64
	Name          *string
	Description   *string
	Filters       *string
	Settings      *string
	Secret        *string
	SecretVersion *int64
}

// Values returns the configuration's attribute values for the protocol.
func (c *Config) Values() map[string]tftypes.Value {
	str := func(p *string) tftypes.Value {
		if p == nil {
			return tftypes.NewValue(tftypes.String, nil)
		}
		return tftypes.NewValue(tftypes.String, *p)
	}
	num := func(p *int64) tftypes.Value {
		if p == nil {
			return tftypes.NewValue(tftypes.Number, nil)
		}
		return tftypes.NewValue(tftypes.Number, *p)
	}
	enabled := tftypes.NewValue(tftypes.Bool, nil)
	if c.Enabled != nil {
		enabled = tftypes.NewValue(tftypes.Bool, *c.Enabled)
	}
	return map[string]tftypes.Value{
		"project_id": str(c.ProjectID), "plugin": tftypes.NewValue(tftypes.Number, c.Plugin),
		"enabled": enabled, "order": num(c.Order), "name": str(c.Name), "description": str(c.Description),
		"filters": str(c.Filters), "config": str(c.Settings), "secret_config_wo": str(c.Secret),
		"secret_config_wo_version": num(c.SecretVersion),
	}
}

// configGen generates a configuration of kind for the catalog: from
// scratch, or (when prior is not nil) as a change of prior that sets,
// changes or removes some of its arguments.
func configGen(cat *Catalog, kind string, prior *Config) *rapid.Generator[*Config] {
	return rapid.Custom(func(t *rapid.T) *Config {
		c := &Config{Kind: kind}
		fresh := prior == nil || rapid.IntRange(0, 4).Draw(t, "fresh") == 0
		if !fresh {
			cp := *prior
			c = &cp
		}
		change := func(label string) bool { return fresh || rapid.IntRange(0, 3).Draw(t, "change "+label) == 0 }
		optional := func(label string) bool { return rapid.IntRange(0, 2).Draw(t, "leave out "+label) == 0 }
		if change("plugin") {
			c.Plugin = rapid.SampledFrom(cat.OfKind(kind)).Draw(t, "plugin")
			// Settings that fit the new plugin.
			c.Settings, c.Secret, c.SecretVersion = nil, nil, nil
		}
		if change("project_id") {
			c.ProjectID = rapid.SampledFrom([]*string{nil, ptr("1"), ptr("@current")}).Draw(t, "project_id")
		}
		if change("enabled") {
			c.Enabled = rapid.SampledFrom([]*bool{nil, ptr(true), ptr(false)}).Draw(t, "enabled")
		}
		if change("order") {
			c.Order = nil
			if !optional("order") {
				c.Order = ptr(rapid.SampledFrom([]int64{0, 1, 5, -3, math.MaxInt32, math.MaxInt32 + 1}).Draw(t, "order"))
			}
		}
		if change("name") {
			c.Name = nil
			if !optional("name") {
				c.Name = ptr(textGen(400).Draw(t, "name"))
			}
		}
		if change("description") {
			c.Description = nil
			if !optional("description") {
				c.Description = ptr(textGen(1000).Draw(t, "description"))
			}
		}
		if change("filters") {
			c.Filters = nil
			if !optional("filters") {
				c.Filters = ptr(filtersGen.Draw(t, "filters"))
			}
		}
		if change("settings") {
			c.Settings = nil
			if !optional("settings") {
				c.Settings = ptr(settingsGen(cat, c.Plugin).Draw(t, "config"))
			}
		}
		if secrets := cat.SecretKeys(c.Plugin); len(secrets) > 0 && change("secret") {
			c.Secret, c.SecretVersion = nil, nil
			if !optional("secret") {
				c.Secret = ptr(secretsGen(secrets).Draw(t, "secret_config_wo"))
				c.SecretVersion = ptr(rapid.Int64Range(1, 3).Draw(t, "secret_config_wo_version"))
			}
		}
		return c
	})
}

// settingsGen is the non-secret settings of plugin id: its schema's keys
// that are not secret and keys it does not know, with values of every JSON
// type.
func settingsGen(cat *Catalog, id int64) *rapid.Generator[string] {
	secret := cat.SecretKeys(id)
	var keys []string
	for _, k := range append(cat.FieldKeys(id), "extra", "other") {
		if !slices.Contains(secret, k) && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return rapid.Custom(func(t *rapid.T) string {
		obj := map[string]any{}
		for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(keys), 0, 3, func(k string) string { return k }).Draw(t, "keys") {
			obj[k] = jsonValueGen(2).Draw(t, k)
		}
		return jsonText(obj)
	})
}

// secretsGen is secret settings: some of the secret keys, with text (empty
// text too, which the service stores unmasked) or null.
func secretsGen(secret []string) *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		obj := map[string]any{}
		for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(secret), 0, len(secret), func(k string) string { return k }).Draw(t, "keys") {
			obj[k] = rapid.SampledFrom([]any{"s3cr3t", "", nil, "ünïcode secret"}).Draw(t, k)
		}
		return jsonText(obj)
	})
}

// filtersGen is filters of every shape the service accepts, rewrites or
// refuses (a list instead of an object one time in eight).
var filtersGen = rapid.OneOf(
	rapid.Just(`{}`),
	filtersObjectGen, filtersObjectGen, filtersObjectGen, filtersObjectGen, filtersObjectGen, filtersObjectGen,
	rapid.Just(`[]`),
)

// filtersObjectGen is a filters object: events and actions lists (now and
// then something else), filter_test_accounts in every form, a key the
// service drops.
var filtersObjectGen = rapid.Custom(func(t *rapid.T) string {
	obj := map[string]any{}
	for _, list := range []string{"events", "actions"} {
		switch rapid.IntRange(0, 9).Draw(t, list) {
		case 0, 1, 2, 3:
		case 4:
			obj[list] = rapid.SampledFrom([]any{nil, "x", map[string]any{}}).Draw(t, list+" not a list")
		default:
			obj[list] = rapid.SliceOfN(entryGen, 0, 2).Draw(t, list+" entries")
		}
	}
	if rapid.Bool().Draw(t, "test accounts") {
		obj["filter_test_accounts"] = rapid.SampledFrom([]any{true, false, "true", "no", json.Number("1"), json.Number("0"), "maybe", nil}).
			Draw(t, "filter_test_accounts")
	}
	if rapid.IntRange(0, 3).Draw(t, "extra key") == 0 {
		obj["note"] = "the service drops this"
	}
	return jsonText(obj)
})

// entryGen is one events or actions entry: one in five may hold what the
// service refuses, the others only what it accepts or rewrites.
var entryGen = rapid.Custom(func(t *rapid.T) any {
	odd := rapid.IntRange(0, 4).Draw(t, "odd entry") == 0
	pick := func(key string, valid, invalid []any) any {
		if odd {
			valid = append(slices.Clone(valid), invalid...)
		}
		return rapid.SampledFrom(valid).Draw(t, key)
	}
	e := map[string]any{}
	if !odd || rapid.IntRange(0, 3).Draw(t, "has type") > 0 {
		e["type"] = pick("type", []any{"events", "actions"}, []any{nil, "event", json.Number("5")})
	}
	optionally := func(key string, valid, invalid []any) {
		if rapid.Bool().Draw(t, "has "+key) {
			e[key] = pick(key, valid, invalid)
		}
	}
	optionally("id", []any{"$pageview", " $pageview\n", "\u3000x", json.Number("5"), json.Number("2.50"),
		json.Number("123456789012345678901234567890"), json.Number("1e300")}, []any{"", "  ", true, nil})
	optionally("name", []any{"Page view", "Page view\n", nil, json.Number("7")}, []any{" ", ""})
	optionally("order", []any{json.Number("2"), "3", json.Number("4.0"), "5.00 ", json.Number("-1")},
		[]any{json.Number("2.5"), "two", nil, json.Number("1e20")})
	if rapid.Bool().Draw(t, "has properties") {
		shape := pick("properties shape", []any{"list"}, []any{"null", "text", "not objects"})
		switch shape {
		case "null":
			e["properties"] = nil
		case "text":
			e["properties"] = "x"
		case "not objects":
			e["properties"] = []any{"not an object"}
		default:
			props := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) any {
				return map[string]any{"key": "k", "value": jsonValueGen(1).Draw(t, "value")}
			}), 0, 2).Draw(t, "properties")
			e["properties"] = props
		}
	}
	if rapid.IntRange(0, 3).Draw(t, "extra entry key") == 0 {
		e["math"] = "total"
	}
	return e
})

// String renders the configuration's arguments on one line, for the steps
// of a failure message.
func (c *Config) String() string {
	if c == nil {
		return "(not in the configuration)"
	}
	lines := strings.Split(strings.TrimSpace(c.HCL("r")), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines[1:len(lines)-1], "; ")
}
