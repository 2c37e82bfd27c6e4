package configresource

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// pluginFactsKey is the key of the plugin facts in the resource's private
// state.
const pluginFactsKey = "plugin"

// pluginFacts is what planning a config needs to know of its plugin: which
// settings are secret, whether the config's name and description are the
// plugin's own (the service shows those when the config has none), and
// whether the state keeps a blank name or description for them. The
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
	// BlankName and BlankDescription are set when the configuration of the
	// last create or update set a blank name or description ("" or
	// whitespace, which the service stores as ""): the state keeps the blank
	// while the service shows the plugin's for it, also at a refresh; a
	// configuration that no longer sets it plans the plugin's.
	BlankName        bool `json:"bn,omitempty"`
	BlankDescription bool `json:"bd,omitempty"`
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
		f.BlankName == o.BlankName && f.BlankDescription == o.BlankDescription &&
		(f.SecretKeys == nil) == (o.SecretKeys == nil) &&
		(f.SecretKeys == nil || slices.Equal(*f.SecretKeys, *o.SecretKeys))
}

// pluginFactsOf returns the facts the record rec tells through its
// plugin_info, and prior's where it does not say (a service that sends
// none). A name or description that is empty is always the plugin's.
func pluginFactsOf(rec *client.Record, prior pluginFacts) pluginFacts {
	f, p := prior, record.PluginOf(rec.PluginInfo)
	if p.SecretKeys != nil {
		// Never nil: a nil slice would be stored as null, read back as not
		// known.
		keys := slices.AppendSeq(make([]string, 0, len(p.SecretKeys)), maps.Keys(p.SecretKeys))
		slices.Sort(keys)
		f.SecretKeys = &keys
	}
	if isPlugins, told := p.Name.Shows(rec.Name); told {
		f.NameFromPlugin = isPlugins
	}
	if isPlugins, told := p.Description.Shows(rec.Description); told {
		f.DescriptionFromPlugin = isPlugins
	}
	return f
}

// fromRecord sets c, whose values are the planned ones (apply) or the
// state's (a refresh), from the service's answer rec with facts, its
// plugin facts. Besides the one mapping (record.Config.FromRecord), c keeps
// its name and description where the service shows what they stand for
// (record.TextFromAPI): their stripped text, or, blank, the plugin's, which
// an apply must keep (Terraform wants the planned value back) and a
// refresh keeps where the configuration set the blank.
func fromRecord(c *record.Config, rec *client.Record, facts pluginFacts, apply bool) {
	name, description := c.Name, c.Description
	secrets, _ := facts.secretKeys()
	c.FromRecord(rec, secrets)
	c.Name = record.TextFromAPI(rec.Name, name, facts.NameFromPlugin && (apply || facts.BlankName))
	c.Description = record.TextFromAPI(rec.Description, description,
		facts.DescriptionFromPlugin && (apply || facts.BlankDescription))
}

// isBlank reports whether a configured name or description is set and
// blank.
func isBlank(v types.String) bool { return framework.IsSet(v) && record.IsBlank(v.ValueString()) }
