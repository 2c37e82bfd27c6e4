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
)

// pluginFactsKey is the private-state key of the plugin facts.
const pluginFactsKey = "plugin"

// pluginFacts is what planning needs of the plugin (plugin_info), and of
// the service, kept in private state, which plans never show, from the
// service's last answer.
type pluginFacts struct {
	// Whether the service was known to make no configs when it answered
	// (Client.StoresConfigs: an answer as today's service gives it, or a
	// create of the same run that stored nothing), so a destroy is for
	// good. Kept here because a destroy is planned by a provider that has
	// read nothing.
	NoCreates  bool      `json:"nc,omitempty"`
	SecretKeys *[]string `json:"s,omitempty"` // sorted; nil when no answer told
	// Whether the config's name or description is the plugin's.
	NameFromPlugin        bool `json:"n,omitempty"`
	DescriptionFromPlugin bool `json:"d,omitempty"`
	// Whether the last write configured a blank name or description, which
	// the state keeps while the service shows the plugin's.
	BlankName        bool `json:"bn,omitempty"`
	BlankDescription bool `json:"bd,omitempty"`
}

type privateReader interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// readPrivate returns the JSON value at key of private state, and whether
// there is one (no plugin facts before the first read).
func readPrivate[T any](ctx context.Context, p privateReader, key string) (T, bool) {
	var v T
	if p == nil {
		return v, false
	}
	raw, diags := p.GetKey(ctx, key)
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return *new(T), false
	}
	return v, true
}

// writePrivate stores v as JSON at key of private state.
func writePrivate(ctx context.Context, p privateWriter, key string, v any) diag.Diagnostics {
	if p == nil {
		return nil
	}
	raw, _ := json.Marshal(v) // strings and booleans always encode
	return p.SetKey(ctx, key, raw)
}

// secretKeys returns the settings the plugin marks secret, and whether told.
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

// pluginFactsOf returns the facts rec's plugin_info tells, prior's
// elsewhere, and whether the service that answered rec makes no configs.
func pluginFactsOf(rec *client.Record, prior pluginFacts, noCreates bool) pluginFacts {
	f, p := prior, PluginOf(rec.PluginInfo)
	f.NoCreates = noCreates
	if p.SecretKeys != nil {
		// Never nil, which would be stored as null: not known.
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

// fromRecord sets c, the plan (apply) or the state (refresh), from rec,
// keeping a name or description the service shows the plugin's for: an apply
// always, a refresh for a configured blank.
func fromRecord(c *RecordModel, rec *client.Record, facts pluginFacts, apply bool) {
	name, description := c.Name, c.Description
	secrets, _ := facts.secretKeys()
	c.FromRecord(rec, secrets)
	c.Name = TextFromAPI(rec.Name, name, facts.NameFromPlugin && (apply || facts.BlankName))
	c.Description = TextFromAPI(rec.Description, description,
		facts.DescriptionFromPlugin && (apply || facts.BlankDescription))
}

// isBlank reports whether a configured name or description is set and blank.
func isBlank(v types.String) bool { return framework.IsSet(v) && IsBlank(v.ValueString()) }

// makesNoConfigs reports whether c knows that its service makes no configs.
func makesNoConfigs(c *client.Client) bool {
	stores, known := c.StoresConfigs()
	return known && !stores
}
