package configresource

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// The plugin settings: the plain ones in config, the secret ones in the
// write-only secret_config_wo, which the service stores together as one JSON
// object (config) and shows with secrets masked.

var (
	settingsPath       = path.Root("config")
	secretSettingsPath = path.Root(settingsSecret)
)

func settingsAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"config": schema.StringAttribute{
			CustomType: jsontypes.NormalizedType{},
			Optional:   true,
			Computed:   true,
			Validators: []validator.String{validSettings},
			MarkdownDescription: "Non-secret plugin settings, a JSON object (write it with `jsonencode`). It " +
				"holds all of them: a setting added in PostHog's UI shows as a change that the apply removes. " +
				"Left out, the settings are not managed.",
		},
		"secret_config_wo": schema.StringAttribute{
			Optional:  true,
			WriteOnly: true,
			// Dropping Sensitive would plan an update of every config once.
			Sensitive:  true,
			Validators: []validator.String{validSettings},
			MarkdownDescription: "Secret plugin settings, a JSON object (write it with `jsonencode`), never " +
				"stored in plan or state. Sent on create and whenever `secret_config_wo_version` changes; a " +
				"secret it then leaves out is cleared.",
		},
		"secret_config_wo_version": schema.Int64Attribute{
			Optional: true,
			Validators: []validator.Int64{
				int64validator.AlsoRequires(secretSettingsPath.Expression()),
			},
			MarkdownDescription: "Change it (e.g. add one) to send `secret_config_wo` again; other updates " +
				"leave the stored secrets alone.",
		},
	}
}

// settingsValidator refuses settings that are not a JSON object, or hold a
// number past a double's range, which the service's Python reads as inf.
type settingsValidator struct{ validator.String }

var validSettings = settingsValidator{framework.JSONObjectValidator("Invalid plugin settings", `jsonencode({ locale = "en" })`)}

func (s settingsValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	s.String.ValidateString(ctx, req, resp)
	if !framework.IsSet(req.ConfigValue) {
		return
	}
	v, err := python.Load(req.ConfigValue.ValueString())
	if err != nil {
		return // not JSON: reported above
	}
	if where, found := python.InfiniteNumber(v); found {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid plugin settings", fmt.Sprintf(
			"%s%s is a number past a double's range (about 1.8e308). The service reads such a number as "+
				"infinity, which it cannot store.", req.Path, where))
	}
}

// sameJSON reports whether configured settings (null: no change) are the state's.
func sameJSON(configured types.String, state jsontypes.Normalized) bool {
	return !framework.IsSet(configured) || framework.IsSet(state) &&
		python.Equal(json.RawMessage(configured.ValueString()), json.RawMessage(state.ValueString()))
}

// planSettings plans the plugin settings; left out, they stay.
func planSettings(configured types.String, proposed, state jsontypes.Normalized) jsontypes.Normalized {
	if !configured.IsUnknown() && sameJSON(configured, state) {
		return state
	}
	return proposed
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

// settingsUpdate returns the PATCH's config field, if any: the planned
// settings, and the secrets when secret_config_wo_version changes (the
// service keeps secrets left out, so they are sent as "", which clears them).
func (r *configResource) settingsUpdate(ctx context.Context, c *client.Client, project string, id int64,
	plan, state, config *Model, facts pluginFacts,
) (client.Opt[json.RawMessage], error) {
	resend := framework.IsSet(config.SecretSettings) && !plan.SecretSettingsVersion.Equal(state.SecretSettingsVersion)
	changed := framework.IsSet(plan.Settings) && !plan.Settings.Equal(state.Settings)
	if !changed && !resend {
		return client.Opt[json.RawMessage]{}, nil
	}
	plain, secret := plan.Settings, types.StringNull()
	if resend {
		secrets, known := facts.secretKeys()
		if config.Settings.IsNull() || !known {
			// Send the settings the service holds; the answer tells the secret keys.
			rec, err := c.Get(ctx, project, r.kind.Collection, id)
			if err != nil {
				return client.Opt[json.RawMessage]{}, err
			}
			secrets, _ = pluginFactsOf(rec, facts, false).secretKeys()
			if config.Settings.IsNull() {
				plain = SettingsFromAPI(rec.Settings, secrets, jsontypes.NewNormalizedNull())
			}
		}
		cleared, err := ClearingSecrets(config.SecretSettings.ValueString(), secrets)
		if err != nil {
			return client.Opt[json.RawMessage]{}, err
		}
		secret = types.StringValue(cleared)
	}
	cfg, err := SettingsInput(plain, secret)
	if err != nil {
		return client.Opt[json.RawMessage]{}, err
	}
	return client.Some(cfg), nil
}

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
	obj, ok := python.Object(string(raw))
	if !ok {
		return JSONValue(raw) // null, or not an object: shown as sent
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
