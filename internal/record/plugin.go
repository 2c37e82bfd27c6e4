package record

import (
	"bytes"
	"encoding/json"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// Plugin is what the provider reads of a record's plugin_info.
type Plugin struct {
	// Name and Description are the plugin's own, which the service shows
	// for a config that has none of its own.
	Name, Description OwnText
	// SecretKeys are the config keys the plugin's config_schema marks
	// secret; nil when plugin_info does not tell (list pages send it as
	// null; a config_schema that is neither a list nor an object).
	SecretKeys map[string]bool
	// SettingKeys are every config key of config_schema, in either form;
	// nil when plugin_info does not tell.
	SettingKeys map[string]bool
}

// OwnText is a plugin's own name or description as plugin_info tells it.
// Plugins' names and descriptions may each be text, "" or null, and change
// when the plugin is upgraded.
type OwnText struct {
	// Text is the plugin's text, "" or nil for null.
	Text *string
	// Known says plugin_info told it (a string or null).
	Known bool
}

// Shows reports whether got, a record's name or description as the
// service shows it, is this plugin text (the service shows the plugin's
// for a config whose own is empty), and whether that can be told. The
// service shows an empty value (null or "") only when it falls back to the
// plugin's, so an empty got is always the plugin's; text is the plugin's
// when it is the plugin's text.
func (t OwnText) Shows(got *string) (isPlugins, told bool) {
	switch {
	case got == nil || *got == "":
		return true, true
	case !t.Known:
		return false, false
	}
	return t.Text != nil && *t.Text == *got, true
}

// PluginOf decodes a record's plugin_info leniently, each fact on its own:
// anything but an object tells nothing, and a config_schema of any shape
// (a list of fields, the older object by key, none, or other JSON) or a
// name that is not a string loses no other fact. Secret keys come from the
// list form only, a field whose "secret" is true to Python, as the service
// finds them; the object form has none (the service masks nothing there).
func PluginOf(pluginInfo json.RawMessage) Plugin {
	var info map[string]json.RawMessage
	if jsonvalue.IsNull(pluginInfo) || json.Unmarshal(pluginInfo, &info) != nil || info == nil {
		return Plugin{}
	}
	return Plugin{
		Name:        ownText(info["name"]),
		Description: ownText(info["description"]),
		SecretKeys:  secretKeysOf(info["config_schema"]),
		SettingKeys: settingKeysOf(info["config_schema"]),
	}
}

// ownText reads a plugin's name or description: a string or null is known,
// anything else (absent included) is not.
func ownText(raw json.RawMessage) OwnText {
	if raw == nil {
		return OwnText{}
	}
	if jsonvalue.IsNull(raw) {
		return OwnText{Known: true}
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return OwnText{}
	}
	return OwnText{Text: &s, Known: true}
}

// secretKeysOf reads the secret keys of a config_schema: those of the list
// form's object fields whose key is a string and whose secret is true to
// Python; none for the object form; nil (not known) for anything else.
func secretKeysOf(raw json.RawMessage) map[string]bool {
	switch raw = bytes.TrimSpace(raw); {
	case len(raw) > 0 && raw[0] == '{':
		return map[string]bool{}
	case len(raw) == 0 || raw[0] != '[':
		return nil
	}
	var fields []json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return nil
	}
	keys := map[string]bool{}
	for _, f := range fields {
		var field struct {
			Key    json.RawMessage `json:"key"`
			Secret json.RawMessage `json:"secret"`
		}
		var key string
		if json.Unmarshal(f, &field) != nil || json.Unmarshal(field.Key, &key) != nil {
			continue // not an object with a text key: the service skips it too
		}
		if python.Truthy(field.Secret) {
			keys[key] = true
		}
	}
	return keys
}

// settingKeysOf reads every key of a config_schema: the list form's text
// keys (entries that are not objects with one are skipped, as the service
// does), the object form's member names; nil for anything else.
func settingKeysOf(raw json.RawMessage) map[string]bool {
	keys := map[string]bool{}
	switch raw = bytes.TrimSpace(raw); {
	case len(raw) > 0 && raw[0] == '{':
		var members map[string]json.RawMessage
		if json.Unmarshal(raw, &members) != nil {
			return nil
		}
		for k := range members {
			keys[k] = true
		}
	case len(raw) > 0 && raw[0] == '[':
		var fields []json.RawMessage
		if json.Unmarshal(raw, &fields) != nil {
			return nil
		}
		for _, f := range fields {
			var field struct {
				Key json.RawMessage `json:"key"`
			}
			var key string
			if json.Unmarshal(f, &field) == nil && json.Unmarshal(field.Key, &key) == nil {
				keys[key] = true
			}
		}
	default:
		return nil
	}
	return keys
}
