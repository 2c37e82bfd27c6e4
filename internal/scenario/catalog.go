package scenario

import (
	"encoding/json"
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// Kinds are the resource kinds a scenario uses, by name, with the plugin
// capability that puts a plugin's configs in the kind's collection.
var Kinds = []string{"transformation", "import_app"}

// TypeName is the config resource type of a kind.
func TypeName(kind string) string { return "pipeline_" + kind + "_config" }

// Catalog is a scenario's plugins.
type Catalog struct {
	Plugins []localapi.Plugin
}

// OfKind returns the ids of the kind's plugins.
func (c *Catalog) OfKind(kind string) []int64 {
	var ids []int64
	for _, p := range c.Plugins {
		if kindOf(p) == kind {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// Plugin returns the plugin with id.
func (c *Catalog) Plugin(id int64) (localapi.Plugin, bool) {
	i := slices.IndexFunc(c.Plugins, func(p localapi.Plugin) bool { return p.ID == id })
	if i < 0 {
		return localapi.Plugin{}, false
	}
	return c.Plugins[i], true
}

// SecretKeys returns the keys the service treats as secret for plugin id:
// the secret fields of a list-form config_schema (the object form has none).
func (c *Catalog) SecretKeys(id int64) []string {
	p, _ := c.Plugin(id)
	if p.ConfigSchema.ObjectForm {
		return nil
	}
	var keys []string
	for _, f := range p.ConfigSchema.Fields {
		if f.Secret {
			keys = append(keys, f.Key)
		}
	}
	return keys
}

// FieldKeys returns the keys of plugin id's config_schema.
func (c *Catalog) FieldKeys(id int64) []string {
	p, _ := c.Plugin(id)
	keys := make([]string, 0, len(p.ConfigSchema.Fields))
	for _, f := range p.ConfigSchema.Fields {
		keys = append(keys, f.Key)
	}
	return keys
}

// JSON renders the catalog as a -plugins file of the local API holds it.
func (c *Catalog) JSON() string {
	b, err := json.MarshalIndent(c.Plugins, "", "  ")
	if err != nil {
		return fmt.Sprintf("(catalog: %v)", err)
	}
	return string(b)
}

func kindOf(p localapi.Plugin) string {
	if slices.Contains(p.Capabilities.Methods, "processEvent") {
		return "transformation"
	}
	return "import_app"
}

// catalogGen generates two or three plugins of each kind: names and
// descriptions text (with whitespace and Unicode), "" or null; schemas in
// the list form (with and without secret keys) or the older object form.
var catalogGen = rapid.Custom(func(t *rapid.T) *Catalog {
	c := &Catalog{}
	id := int64(1)
	for _, kind := range Kinds {
		n := rapid.IntRange(2, 3).Draw(t, kind+" plugins")
		for range n {
			c.Plugins = append(c.Plugins, pluginGen(id, kind).Draw(t, fmt.Sprint("plugin ", id)))
			id++
		}
	}
	return c
})

// pluginGen generates plugin id of kind.
func pluginGen(id int64, kind string) *rapid.Generator[localapi.Plugin] {
	return rapid.Custom(func(t *rapid.T) localapi.Plugin {
		p := localapi.Plugin{
			ID:           id,
			Name:         pluginTextGen.Draw(t, "name"),
			Description:  pluginTextGen.Draw(t, "description"),
			ConfigSchema: schemaGen.Draw(t, "config_schema"),
		}
		if kind == "transformation" {
			p.Capabilities.Methods = []string{"processEvent"}
		} else {
			p.Capabilities.ScheduledTasks = []string{"runEveryHour"}
		}
		return p
	})
}

// pluginTextGen is a plugin's own name or description: text, "" or null.
var pluginTextGen = rapid.OneOf(
	rapid.Just[*string](nil),
	rapid.Just(ptr("")),
	rapid.Map(rapid.OneOf(textGen(40), rapid.Just(" Padded plugin \n")), func(s string) *string {
		// A plugin's text is stored as its author wrote it.
		return ptr(stripNull(s))
	}),
)

// settingKeys are the keys schemas and settings draw from.
var settingKeys = []string{"apiKey", "locale", "rate", "endpoint", "token"}

// schemaGen is a config_schema: a list of fields, some secret, or the
// object form, in which nothing is secret.
var schemaGen = rapid.Custom(func(t *rapid.T) localapi.ConfigSchema {
	keys := rapid.SliceOfNDistinct(rapid.SampledFrom(settingKeys), 0, 3, func(k string) string { return k }).Draw(t, "keys")
	fields := make([]localapi.ConfigField, len(keys))
	for i, k := range keys {
		fields[i] = localapi.ConfigField{Key: k, Type: "string", Secret: rapid.Bool().Draw(t, "secret "+k)}
	}
	if rapid.IntRange(0, 3).Draw(t, "object form") == 0 {
		return localapi.ObjectSchema(fields...)
	}
	return localapi.ListSchema(fields...)
})

// upgradeGen changes a plugin as an upgrade does: a new name, description
// or schema (its id and collection stay).
func upgradeGen(p localapi.Plugin) *rapid.Generator[localapi.Plugin] {
	return rapid.Custom(func(t *rapid.T) localapi.Plugin {
		next := p
		if rapid.Bool().Draw(t, "rename") {
			next.Name = pluginTextGen.Draw(t, "name")
		}
		if rapid.Bool().Draw(t, "describe") {
			next.Description = pluginTextGen.Draw(t, "description")
		}
		if rapid.IntRange(0, 3).Draw(t, "new schema") == 0 {
			next.ConfigSchema = schemaGen.Draw(t, "config_schema")
		}
		return next
	})
}

func ptr[T any](v T) *T { return &v }

func stripNull(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r != 0 {
			out = append(out, r)
		}
	}
	return string(out)
}
