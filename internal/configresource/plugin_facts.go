package configresource

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// pluginFactsKey is the key of the plugin facts in the resource's private
// state.
const pluginFactsKey = "plugin"

// pluginFacts is what planning a config needs to know of its plugin: which
// settings are secret, and whether the config's name and description are
// the plugin's own (the service shows those when the config has none). The
// state does not hold the plugin's description (plugin_info); these few
// bytes sit in Terraform's private state of the resource instead, which
// plans never show. Create, Read and Update write them from the service's
// answer (whose plugin_info tells); the plan reads them.
type pluginFacts struct {
	// SecretKeys are the settings the plugin marks secret, sorted; nil when
	// no answer told.
	SecretKeys *[]string `json:"s,omitempty"`
	// NameFromPlugin and DescriptionFromPlugin are set when the config's
	// name or description is the plugin's.
	NameFromPlugin        bool `json:"n,omitempty"`
	DescriptionFromPlugin bool `json:"d,omitempty"`
}

// privateReader is the private state of a request.
type privateReader interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// privateWriter is the private state of a response.
type privateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// readPluginFacts returns the plugin facts in private state, and whether
// there are any: a state written before they existed (or by an import) has
// none until the next read.
func readPluginFacts(ctx context.Context, p privateReader) (pluginFacts, bool) {
	var f pluginFacts
	if !readPrivate(ctx, p, pluginFactsKey, &f) {
		return pluginFacts{}, false
	}
	return f, true
}

// readPrivate decodes the JSON value at key of private state into v, and
// reports whether there was one.
func readPrivate(ctx context.Context, p privateReader, key string, v any) bool {
	if p == nil {
		return false
	}
	raw, diags := p.GetKey(ctx, key)
	return !diags.HasError() && len(raw) > 0 && json.Unmarshal(raw, v) == nil
}

// store writes f into private state.
func (f pluginFacts) store(ctx context.Context, p privateWriter) diag.Diagnostics {
	if p == nil {
		return nil
	}
	raw, err := json.Marshal(f)
	if err != nil {
		// A struct of strings and booleans always encodes.
		return nil
	}
	return p.SetKey(ctx, pluginFactsKey, raw)
}

// secretKeys returns the settings the plugin marks secret, and whether an
// answer told.
func (f pluginFacts) secretKeys() (map[string]bool, bool) {
	if f.SecretKeys == nil {
		return nil, false
	}
	keys := make(map[string]bool, len(*f.SecretKeys))
	for _, k := range *f.SecretKeys {
		keys[k] = true
	}
	return keys, true
}

// equal reports whether f and o hold the same facts.
func (f pluginFacts) equal(o pluginFacts) bool {
	return f.NameFromPlugin == o.NameFromPlugin && f.DescriptionFromPlugin == o.DescriptionFromPlugin &&
		(f.SecretKeys == nil) == (o.SecretKeys == nil) &&
		(f.SecretKeys == nil || slices.Equal(*f.SecretKeys, *o.SecretKeys))
}

// pluginFactsOf returns the facts the record rec tells through its
// plugin_info, and prior's where plugin_info does not say (a service that
// sends none).
func pluginFactsOf(rec *client.Record, prior pluginFacts) pluginFacts {
	if jsonvalue.IsNull(rec.PluginInfo) {
		return prior
	}
	f, p := prior, record.PluginOf(rec.PluginInfo)
	if p.SecretKeys != nil {
		keys := slices.Sorted(maps.Keys(p.SecretKeys))
		f.SecretKeys = &keys
	}
	if p.Name != nil {
		f.NameFromPlugin = record.IsPluginsText(rec.Name, *p.Name)
	}
	if p.Description != nil {
		f.DescriptionFromPlugin = record.IsPluginsText(rec.Description, *p.Description)
	}
	return f
}
