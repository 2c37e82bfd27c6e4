package collection

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
)

// Plugin settings: `config` holds the non-secret ones, the write-only
// `secret_config_wo` the secret ones. The service masks secret values in
// every response, and on update keeps a stored secret whose key is left out
// of the sent config (or sent as null), while every other key is replaced
// by what is sent.

// secretMask is what the service shows instead of a secret value.
const secretMask = "**************** POSTHOG SECRET FIELD ****************"

// settings is a JSON object of plugin settings, values as sent or received.
type settings map[string]json.RawMessage

// stringValue is a string attribute value of any type (plain, JSON).
type stringValue interface {
	attr.Value
	ValueString() string
}

// parseSettings decodes a JSON object; anything else is an error.
func parseSettings(text string) (settings, error) {
	var obj settings
	if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
		return nil, errors.New("must be a JSON object string (write it with jsonencode)")
	}
	return obj, nil
}

// text renders s as compact JSON with sorted keys, as jsonencode does.
func (s settings) text() string {
	b, err := json.Marshal(s)
	if err != nil {
		// Values are decoded JSON, so they encode again.
		return "{}"
	}
	return string(b)
}

// sortedKeys lists the keys of s in order, for stable messages.
func (s settings) sortedKeys() []string { return slices.Sorted(maps.Keys(s)) }

// jsonEqual reports whether two JSON values are equal as values (numbers,
// key order and spacing aside).
func jsonEqual(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return deepEqualJSON(va, vb)
}

func deepEqualJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !deepEqualJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !deepEqualJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

// sameSettingsText reports whether two settings texts hold the same object.
func sameSettingsText(a, b string) bool {
	return a == b || jsonEqual(json.RawMessage(a), json.RawMessage(b))
}

// secretKeys returns the config keys a plugin_info's config_schema marks
// secret, and whether plugin_info tells (list pages send it as null).
func secretKeys(pluginInfo json.RawMessage) (map[string]bool, bool) {
	var info struct {
		ConfigSchema *[]struct {
			Key    string `json:"key"`
			Secret bool   `json:"secret"`
		} `json:"config_schema"`
	}
	// Lenient: anything but an object with a config_schema list is "not known".
	if isJSONNull(pluginInfo) || json.Unmarshal(pluginInfo, &info) != nil || info.ConfigSchema == nil {
		return nil, false
	}
	keys := map[string]bool{}
	for _, f := range *info.ConfigSchema {
		if f.Secret {
			keys[f.Key] = true
		}
	}
	return keys, true
}

// secretKeysOf is secretKeys of plugin_info as held in a model.
func secretKeysOf(info jsontypes.Normalized) (map[string]bool, bool) {
	if !isSet(info) {
		return nil, false
	}
	return secretKeys(json.RawMessage(info.ValueString()))
}

// configFromAPI is the value of `config` for the service's config: its
// non-secret settings, without the keys plugin_info marks secret and without
// masked values. The prior value (the configured one, or state) is kept when
// the service agrees with it on every key it sets: settings the service
// adds are no change, while a configured value changed elsewhere is.
func configFromAPI(raw json.RawMessage, secrets map[string]bool, prior jsontypes.Normalized) jsontypes.Normalized {
	if isJSONNull(raw) {
		return jsontypes.NewNormalizedNull()
	}
	var got settings
	if json.Unmarshal(raw, &got) != nil || got == nil {
		// Not an object: shown as the service sent it.
		return jsonValue(raw)
	}
	for k, v := range got {
		if secrets[k] || isMasked(v) {
			delete(got, k)
		}
	}
	if isSet(prior) && agrees(got, prior.ValueString()) {
		return prior
	}
	return jsontypes.NewNormalizedValue(got.text())
}

// isMasked reports whether v is the service's mask of a secret value.
func isMasked(v json.RawMessage) bool {
	var s string
	return json.Unmarshal(v, &s) == nil && s == secretMask
}

// agrees reports whether got holds every setting of the object text want,
// with the same value.
func agrees(got settings, want string) bool {
	w, err := parseSettings(want)
	if err != nil {
		return false
	}
	for k, v := range w {
		g, ok := got[k]
		if !ok || !jsonEqual(g, v) {
			return false
		}
	}
	return true
}

// settingsInput returns the config to send: the non-secret settings
// (nonSecret; "{}" when not known) merged with the secret ones (secret, when
// set). The two were checked not to share keys; a secret value wins anyway.
func settingsInput(nonSecret, secret stringValue) (json.RawMessage, error) {
	out := settings{}
	if isSet(nonSecret) {
		s, err := parseSettings(nonSecret.ValueString())
		if err != nil {
			return nil, fmt.Errorf("config %w", err)
		}
		out = s
	}
	if isSet(secret) {
		s, err := parseSettings(secret.ValueString())
		if err != nil {
			return nil, fmt.Errorf("secret_config_wo %w", err)
		}
		maps.Copy(out, s)
	}
	return json.RawMessage(out.text()), nil
}
