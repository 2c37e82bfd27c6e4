package record

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// The hog function the service's migration builds from a config (the
// notes' "What a migration makes", PostHog's hog_function_from_plugin_config).

// templatePrefixes are the plugin urls whose plugins have a hog function
// template of their own; the rest of the url names it.
var templatePrefixes = []string{"https://github.com/PostHog/", "inline://"}

// HogTemplateID returns the hog function template that stands for the
// plugin at url (plugin_info's url), and whether there is one: plugins
// from PostHog's repositories and the inline ones have one, named by the
// rest of the url (two inline plugins' templates end in -plugin); others,
// and plugins written in the browser (no url), have none.
func HogTemplateID(url *string) (string, bool) {
	if url == nil {
		return "", false
	}
	for _, prefix := range templatePrefixes {
		if slug, ok := strings.CutPrefix(*url, prefix); ok && slug != "" {
			if slug == "semver-flattener" || slug == "user-agent" {
				slug += "-plugin"
			}
			return "plugin-" + slug, true
		}
	}
	return "", false
}

// HogFunction is the hog function the service's migration would build of a
// config, as the official provider's posthog_hog_function takes it: the
// data sources show it, so that a configuration can write one per config
// with a personal API key, which may not call migrate.
type HogFunction struct {
	// Available says whether the plugin has a template; without one the
	// rest is what a hog function would need, but no template stands for it.
	Available   types.Bool   `tfsdk:"available"`
	TemplateID  types.String `tfsdk:"template_id"`
	Type        types.String `tfsdk:"type"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	// InputsJSON are the non-secret settings as {"<key>": {"value": v}}.
	InputsJSON jsontypes.Normalized `tfsdk:"inputs_json"`
	// SecretInputs are the secret settings the config holds a value for:
	// the service never shows them, so they must be supplied again.
	SecretInputs   []types.String `tfsdk:"secret_inputs"`
	ExecutionOrder types.Int64    `tfsdk:"execution_order"`
	Enabled        types.Bool     `tfsdk:"enabled"`
}

// hogFunctionOf builds the hog function of config c (with its plugin's
// pluginInfo and its stored settings) as PostHog's
// hog_function_from_plugin_config does: the template of the plugin's url,
// its type from the plugin's capabilities (as the templates have it), the
// plugin's name, every setting as an input, the config's order and enabled
// flag.
func hogFunctionOf(c *Config, pluginInfo, settings json.RawMessage) *HogFunction {
	p := PluginOf(pluginInfo)
	info := struct {
		URL          *string `json:"url"`
		Migratable   *bool   `json:"hog_function_migration_available"`
		Capabilities struct {
			Methods        []string `json:"methods"`
			ScheduledTasks []string `json:"scheduled_tasks"`
		} `json:"capabilities"`
	}{}
	_ = json.Unmarshal(pluginInfo, &info)
	h := &HogFunction{
		Available: types.BoolValue(false), TemplateID: types.StringNull(),
		Type: types.StringValue("destination"), Name: c.Name,
		InputsJSON: jsontypes.NewNormalizedNull(), ExecutionOrder: c.Order, Enabled: c.Enabled,
		SecretInputs: []types.String{},
	}
	// The service says whether it can migrate the plugin (since it can);
	// before, the template's name is all there is to go by.
	if id, ok := HogTemplateID(info.URL); ok && (info.Migratable == nil || *info.Migratable) {
		h.Available, h.TemplateID = types.BoolValue(true), types.StringValue(id)
	}
	switch {
	case slices.Contains(info.Capabilities.Methods, "processEvent"):
		h.Type = types.StringValue("transformation")
	case len(info.Capabilities.ScheduledTasks) > 0:
		h.Type = types.StringValue("source_webhook")
	}
	if p.Name.Text != nil && *p.Name.Text != "" {
		h.Name = types.StringValue(*p.Name.Text)
	}
	// Never empty: the service fills an empty description from the
	// template, which posthog_hog_function would read back as a change.
	h.Description = c.Description
	if !framework.IsSet(h.Description) || strings.TrimSpace(h.Description.ValueString()) == "" {
		h.Description = types.StringValue("Made from " + h.Name.ValueString() + ".")
	}
	inputs := map[string]map[string]json.RawMessage{}
	if plain, err := ParseSettings(c.Settings.ValueString()); err == nil {
		for k, v := range plain {
			inputs[k] = map[string]json.RawMessage{"value": v}
		}
	}
	if b, err := json.Marshal(inputs); err == nil {
		h.InputsJSON = jsontypes.NewNormalizedValue(string(b))
	}
	stored, _ := ParseSettings(string(settings))
	for _, k := range slices.Sorted(maps.Keys(p.SecretKeys)) {
		if v, ok := stored[k]; ok && !jsonvalue.IsNull(v) && string(v) != `""` {
			h.SecretInputs = append(h.SecretInputs, types.StringValue(k))
		}
	}
	return h
}
