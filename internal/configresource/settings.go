package configresource

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// SecretMask is what the service shows instead of a secret value.
const SecretMask = "**************** POSTHOG SECRET FIELD ****************"

// Settings is a JSON object of plugin settings, values as sent or received.
type Settings map[string]json.RawMessage

// StringValue is a string attribute value of any type (plain, JSON).
type StringValue interface {
	attr.Value
	ValueString() string
}

// ParseSettings decodes a JSON object; anything else is an error.
func ParseSettings(text string) (Settings, error) {
	obj, ok := python.Object(text)
	if !ok {
		return nil, framework.ErrNotJSONObject
	}
	return obj, nil
}

// text renders s as compact JSON with sorted keys, as jsonencode does.
func (s Settings) text() string {
	b, _ := json.Marshal(s) // cannot fail: the values are decoded JSON
	return string(b)
}

// SortedKeys lists the keys of s in order, for stable messages.
func (s Settings) SortedKeys() []string { return slices.Sorted(maps.Keys(s)) }

// SecretKeys returns the config keys plugin_info marks secret, and whether
// it tells (list pages send null).
func SecretKeys(pluginInfo json.RawMessage) (map[string]bool, bool) {
	keys := PluginOf(pluginInfo).SecretKeys
	return keys, keys != nil
}

// SettingsFromAPI is `config` for the service's settings, secrets and masks
// left out; prior while it says the same. A key beyond prior (set in the UI)
// shows, so the plan says an update, which replaces them all, removes it.
func SettingsFromAPI(raw json.RawMessage, secrets map[string]bool, prior jsontypes.Normalized) jsontypes.Normalized {
	if python.IsNull(raw) {
		return jsontypes.NewNormalizedNull()
	}
	obj, ok := python.Object(string(raw))
	if !ok {
		return JSONValue(raw) // not an object: shown as sent
	}
	got := Settings(obj)
	for k, v := range got {
		if secrets[k] || IsMasked(v) {
			delete(got, k)
		}
	}
	if framework.IsSet(prior) && HoldsSettings(got, prior.ValueString(), Exactly) && holdsOnly(got, prior.ValueString()) {
		return prior
	}
	return jsontypes.NewNormalizedValue(got.text())
}

// holdsOnly reports whether every key of got is in the object text or empty:
// the service stores a secret never set as null and a cleared one as "",
// which an upgrade may make plain, and the UI saves an empty field as "".
func holdsOnly(got Settings, text string) bool {
	want, err := ParseSettings(text)
	if err != nil {
		return false
	}
	for k, v := range got {
		if _, ok := want[k]; !ok && !python.IsNull(v) && string(v) != `""` {
			return false
		}
	}
	return true
}

// IsMasked reports whether v is the service's mask of a secret value.
func IsMasked(v json.RawMessage) bool {
	var s string
	return json.Unmarshal(v, &s) == nil && s == SecretMask
}

// Match says how HoldsSettings compares stored settings with sent ones.
type Match bool

const (
	// Exactly: every sent key is stored with an equal value.
	Exactly Match = false
	// AsStored: a masked secret, and a key sent as null and not stored,
	// count as the same too.
	AsStored Match = true
)

// HoldsSettings reports whether stored holds every setting of the object
// text sent, compared as m says; false when sent is not an object.
func HoldsSettings(stored Settings, sent string, m Match) bool {
	want, err := ParseSettings(sent)
	if err != nil {
		return false
	}
	for k, v := range want {
		g, ok := stored[k]
		switch {
		case !ok:
			if m == Exactly || !python.IsNull(v) {
				return false
			}
		case m == AsStored && IsMasked(g):
		case !python.Equal(g, v):
			return false
		}
	}
	return true
}

// ClearingSecrets returns the secret settings text with every key of
// secrets it leaves out or sets to null set to "": the service keeps a
// stored secret whose key is left out or null, and clears it for "".
func ClearingSecrets(text string, secrets map[string]bool) (string, error) {
	s, err := ParseSettings(text)
	if err != nil {
		return "", fmt.Errorf("secret_config_wo %w", err)
	}
	for k := range secrets {
		if _, ok := s[k]; !ok {
			s[k] = nil
		}
	}
	for k, v := range s {
		if python.IsNull(v) {
			s[k] = json.RawMessage(`""`) // null means gone, secret or not
		}
	}
	return s.text(), nil
}

// SettingsInput returns the config to send: the non-secret settings ("{}"
// when not known) merged with the secret ones. They were checked not to
// share keys; a secret value wins anyway.
func SettingsInput(nonSecret, secret StringValue) (json.RawMessage, error) {
	out := Settings{}
	if framework.IsSet(nonSecret) {
		s, err := ParseSettings(nonSecret.ValueString())
		if err != nil {
			return nil, fmt.Errorf("config %w", err)
		}
		out = s
	}
	if framework.IsSet(secret) {
		s, err := ParseSettings(secret.ValueString())
		if err != nil {
			return nil, fmt.Errorf("secret_config_wo %w", err)
		}
		maps.Copy(out, s)
	}
	return json.RawMessage(out.text()), nil
}
