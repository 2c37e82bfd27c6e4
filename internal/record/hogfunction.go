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

// HogTemplateID returns the hog function template of the plugin at url
// (plugin_info's url), named by the rest of the url, and whether there is
// one (two inline plugins' templates end in -plugin; plugins written in the
// browser have no url).
func HogTemplateID(url *string) (string, bool) {
	if url == nil {
		return "", false
	}
	for _, prefix := range []string{"https://github.com/PostHog/", "inline://"} {
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
// config, as posthog_hog_function takes it: the data sources show it, so
// that a personal API key, which may not call migrate, can write one.
type HogFunction struct {
	// Available says whether a template stands for the plugin.
	Available   types.Bool   `tfsdk:"available"`
	TemplateID  types.String `tfsdk:"template_id"`
	Type        types.String `tfsdk:"type"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	// InputsJSON are the non-secret settings as {"<key>": {"value": v}}.
	InputsJSON jsontypes.Normalized `tfsdk:"inputs_json"`
	// SecretInputs are the secret settings the config holds, which the
	// service never shows: they must be supplied again.
	SecretInputs   []types.String `tfsdk:"secret_inputs"`
	ExecutionOrder types.Int64    `tfsdk:"execution_order"`
	Enabled        types.Bool     `tfsdk:"enabled"`
}

// hogFunctionOf builds the hog function of config c, with its plugin_info
// and stored settings, as PostHog's hog_function_from_plugin_config does.
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
		ExecutionOrder: c.Order, Enabled: c.Enabled,
		SecretInputs: []types.String{},
	}
	// Services that can migrate say whether they can; before, the template is all to go by.
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
	// Never empty: the service would fill it from the template, a change to posthog_hog_function.
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
	b, _ := json.Marshal(inputs) // values of a decoded object always encode
	h.InputsJSON = jsontypes.NewNormalizedValue(string(b))
	stored, _ := ParseSettings(string(settings))
	for _, k := range slices.Sorted(maps.Keys(p.SecretKeys)) {
		if v, ok := stored[k]; ok && !jsonvalue.IsNull(v) && string(v) != `""` {
			h.SecretInputs = append(h.SecretInputs, types.StringValue(k))
		}
	}
	return h
}
