package configresource

import (
	"bytes"
	"encoding/json"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

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
	all, secret = map[string]bool{}, map[string]bool{}
	switch raw = bytes.TrimSpace(raw); {
	case len(raw) > 0 && raw[0] == '{':
		var members map[string]json.RawMessage
		if json.Unmarshal(raw, &members) != nil {
			return nil, secret
		}
		for k := range members {
			all[k] = true
		}
	case len(raw) > 0 && raw[0] == '[':
		var fields []json.RawMessage
		if json.Unmarshal(raw, &fields) != nil {
			return nil, nil
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
	default:
		return nil, nil
	}
	return all, secret
}
