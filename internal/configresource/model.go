package configresource

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// RecordModel holds what describes one config record and stays put: what the
// config resource keeps in state, and what every construct shows of a record.
type RecordModel struct {
	ID          types.Int64          `tfsdk:"id"`
	ProjectID   types.String         `tfsdk:"project_id"`
	Plugin      types.Int64          `tfsdk:"plugin"`
	Enabled     types.Bool           `tfsdk:"enabled"`
	Order       types.Int64          `tfsdk:"order"`
	Name        types.String         `tfsdk:"name"`
	Description types.String         `tfsdk:"description"`
	Filters     FiltersValue         `tfsdk:"filters"`
	Settings    jsontypes.Normalized `tfsdk:"config"`
	CreatedAt   types.String         `tfsdk:"created_at"`
	UpdatedAt   types.String         `tfsdk:"updated_at"`
}

// FromRecord sets m from rec for a construct that shows the record (a data
// source, a list result): the one mapping from the API, as fromRecord.
func (m *RecordModel) FromRecord(rec *client.Record) {
	m.fromRecord(rec, pluginFactsOf(rec, pluginFacts{}, false), false)
}

// fromRecord sets m from rec: m is the plan (apply), the state (refresh) or
// empty. config leaves out the settings the plugin marks secret (facts); a
// name or description stays where the service shows the plugin's for it:
// at an apply always, else for a configured blank.
func (m *RecordModel) fromRecord(rec *client.Record, facts pluginFacts, apply bool) {
	secrets, _ := facts.secretKeys()
	m.ID = types.Int64Value(rec.ID)
	m.Plugin = types.Int64Value(rec.Plugin)
	m.Enabled = types.BoolValue(rec.Enabled)
	m.Order = types.Int64Value(rec.Order)
	m.Name = TextFromAPI(rec.Name, m.Name, facts.NameFromPlugin && (apply || facts.BlankName))
	m.Description = TextFromAPI(rec.Description, m.Description, facts.DescriptionFromPlugin && (apply || facts.BlankDescription))
	m.Filters = filtersFromAPI(rec.Filters, m.Filters)
	m.Settings = SettingsFromAPI(rec.Settings, secrets, m.Settings)
	m.CreatedAt = timestamp(rec.CreatedAt)
	m.UpdatedAt = timestamp(rec.UpdatedAt)
}

// timestamp maps an absent time to null.
func timestamp(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// JSONValue renders a JSON value from the service as compact text; absent
// or null is null.
func JSONValue(raw json.RawMessage) jsontypes.Normalized {
	if python.IsNull(raw) {
		return jsontypes.NewNormalizedNull()
	}
	return jsontypes.NewNormalizedValue(python.Compact(raw))
}

const pluginFactsKey = "plugin"

// pluginFacts is what planning needs of the plugin (plugin_info), and of
// the service, kept in private state, which plans never show, from the
// service's last answer.
type pluginFacts struct {
	// Whether the service was known to make no configs when it answered
	// (Client.StoresConfigs), so a destroy is for good. Kept here because a
	// destroy is planned by a provider that has read nothing.
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

// privateState is a request's or response's private state, whose type the
// framework keeps internal (a nil one reads as empty).
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// readPrivate returns the JSON value at key of private state, and whether
// there is one (no plugin facts before the first read).
func readPrivate[T any](ctx context.Context, p privateState, key string) (v T, ok bool) {
	raw, diags := p.GetKey(ctx, key)
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return *new(T), false
	}
	return v, true
}

func writePrivate(ctx context.Context, p privateState, key string, v any) diag.Diagnostics {
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
		keys := append([]string{}, slices.Sorted(maps.Keys(p.SecretKeys))...)
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

func makesNoConfigs(c *client.Client) bool {
	stores, known := c.StoresConfigs()
	return known && !stores
}

// Plugin is what the provider reads of a record's plugin_info.
type Plugin struct {
	// Name and Description are the plugin's own, which the service shows for
	// a config that has none.
	Name, Description OwnText
	// SecretKeys are the config keys config_schema marks secret; nil when
	// plugin_info does not tell (list pages send null).
	SecretKeys map[string]bool
	// SettingKeys are every key of config_schema; nil when not told.
	SettingKeys map[string]bool
}

// OwnText is a plugin's own name or description: text, "" or null, changed
// when the plugin is upgraded.
type OwnText struct {
	// Text is the plugin's text, nil for null.
	Text *string
	// Known says plugin_info told it (a string or null).
	Known bool
}

// Shows reports whether got, a record's name or description as the service
// shows it, is this plugin text, and whether that can be told. The service
// shows an empty value only when it falls back to the plugin's.
func (t OwnText) Shows(got *string) (isPlugins, told bool) {
	switch {
	case got == nil || *got == "":
		return true, true
	case !t.Known:
		return false, false
	}
	return t.Text != nil && *t.Text == *got, true
}

// PluginOf decodes plugin_info leniently, each fact on its own: anything but
// an object tells nothing, and an odd config_schema or name loses no other
// fact.
func PluginOf(pluginInfo json.RawMessage) Plugin {
	var info map[string]json.RawMessage
	if python.IsNull(pluginInfo) || json.Unmarshal(pluginInfo, &info) != nil || info == nil {
		return Plugin{}
	}
	p := Plugin{Name: ownText(info["name"]), Description: ownText(info["description"])}
	p.SettingKeys, p.SecretKeys = configSchemaKeys(info["config_schema"])
	return p
}

// ownText reads a plugin's name or description: a string or null is known,
// anything else (absent included) is not.
func ownText(raw json.RawMessage) OwnText {
	var s *string // null: nil
	if raw == nil || json.Unmarshal(raw, &s) != nil {
		return OwnText{}
	}
	return OwnText{Text: s, Known: true}
}

// configSchemaKeys reads config_schema's keys, all and secret, as the service
// does: the list form's objects with a text key, secret when "secret" is true
// to Python; the object form's members, none secret; nil, nil otherwise.
func configSchemaKeys(raw json.RawMessage) (all, secret map[string]bool) {
	var members map[string]json.RawMessage
	var fields []json.RawMessage
	if python.IsNull(raw) || json.Unmarshal(raw, &members) != nil && json.Unmarshal(raw, &fields) != nil {
		return nil, nil
	}
	all, secret = map[string]bool{}, map[string]bool{}
	for k := range members {
		all[k] = true
	}
	for _, f := range fields {
		var field struct {
			Key    json.RawMessage `json:"key"`
			Secret json.RawMessage `json:"secret"`
		}
		var key string
		if json.Unmarshal(f, &field) != nil || json.Unmarshal(field.Key, &key) != nil {
			continue // not an object with a text key: the service skips it too
		}
		all[key] = true
		if python.Truthy(field.Secret) {
			secret[key] = true
		}
	}
	return all, secret
}
