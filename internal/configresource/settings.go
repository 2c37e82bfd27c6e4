package configresource

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
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
	v, _ := python.Load(req.ConfigValue.ValueString()) // nil when not JSON: reported above
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
	for _, k := range slices.AppendSeq(slices.Collect(maps.Keys(s)), maps.Keys(secrets)) {
		if python.IsNull(s[k]) { // left out or null: gone, secret or not
			s[k] = json.RawMessage(`""`)
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
	maps.DeleteFunc(got, func(k string, v json.RawMessage) bool { return secrets[k] || IsMasked(v) })
	if want, err := ParseSettings(prior.ValueString()); framework.IsSet(prior) && err == nil {
		// A key prior has not and that is null or "" says the same: the service
		// stores a secret never set as null and a cleared one as "", which an
		// upgrade may make plain, and the UI saves an empty field as "".
		same := maps.Clone(got)
		maps.DeleteFunc(same, func(k string, v json.RawMessage) bool {
			_, configured := want[k]
			return !configured && (python.IsNull(v) || string(v) == `""`)
		})
		if python.Equal(json.RawMessage(same.text()), json.RawMessage(prior.ValueString())) {
			return prior
		}
	}
	return jsontypes.NewNormalizedValue(got.text())
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

// The settings against the plugin's schema: keys in the wrong attribute,
// unknown keys.

// ValidateConfig implements resource.ResourceWithValidateConfig: config and
// secret_config_wo share no key.
func (r *configResource) ValidateConfig(_ context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	cfg := configuredOf(req.Config.Raw)
	secret := settingKeys(cfg.secret, nil)
	if both := settingKeys(cfg.Settings, func(k string) bool { return slices.Contains(secret, k) }); len(both) > 0 {
		resp.Diagnostics.AddAttributeError(settingsPath, "Setting in both config and secret_config_wo",
			fmt.Sprintf("config and secret_config_wo both set %s. Put secret settings in secret_config_wo only, "+
				"the others in config only.", quoted(both)))
	}
}

// checkSettingKeys checks configured settings against the keys the plugin
// marks secret; note ends each error.
func checkSettingKeys(plugin int64, secrets map[string]bool, plain, secret StringValue, note string) diag.Diagnostics {
	var diags diag.Diagnostics
	if bad := settingKeys(plain, func(k string) bool { return secrets[k] }); len(bad) > 0 {
		diags.AddAttributeError(settingsPath, "Secret setting in config",
			fmt.Sprintf("config sets %s, which plugin %d marks secret: its value would be stored in plan "+
				"and state. Set it in secret_config_wo (write-only, with secret_config_wo_version) instead.",
				quoted(bad), plugin)+note)
	}
	if bad := settingKeys(secret, func(k string) bool { return !secrets[k] }); len(bad) > 0 {
		diags.AddAttributeError(secretSettingsPath, "Non-secret setting in secret_config_wo",
			fmt.Sprintf("secret_config_wo sets %s, which plugin %d does not mark secret: the service "+
				"shows such values and drops them whenever config is updated without them. Set it in "+
				"config instead.", quoted(bad), plugin)+note)
	}
	return diags
}

// settingKeys returns the sorted keys of settings for which keep holds (nil: all).
func settingKeys(v StringValue, keep func(string) bool) []string {
	if !framework.IsSet(v) {
		return nil
	}
	s, err := ParseSettings(v.ValueString())
	if err != nil {
		return nil
	}
	keys := slices.Sorted(maps.Keys(s))
	if keep != nil {
		keys = slices.DeleteFunc(keys, func(k string) bool { return !keep(k) })
	}
	return keys
}

// quoted writes keys as "a", "b".
func quoted(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, ", ")
}

// refuseMisplacedSettings deletes a config just created whose settings the
// answer's secret keys show in the wrong attribute, and reports whether.
func (r *configResource) refuseMisplacedSettings(ctx context.Context, c *client.Client, project string,
	rec *client.Record, plan *Model, secret types.String, diags *diag.Diagnostics,
) bool {
	secrets, known := SecretKeys(rec.PluginInfo)
	if !known || !checkSettingKeys(rec.Plugin, secrets, plan.Settings, secret, "").HasError() {
		return false
	}
	err := softDelete(ctx, c, project, r.kind.Collection, rec.ID)
	note := deletedAgainNote(rec.ID, err, "Delete it on the service, or import it.")
	diags.Append(checkSettingKeys(rec.Plugin, secrets, plan.Settings, secret, note)...)
	return true
}

// checkAgainstPlugin checks configured settings against the plugin's
// config_schema: keys in the wrong attribute are refused, unknown ones
// warned about. It reports whether the schema told, and why the plugin
// could not be read, if it could not.
func (r *configResource) checkAgainstPlugin(ctx context.Context, meta *framework.ProviderData, plugin int64, cfg *configured,
	diags *diag.Diagnostics,
) (told bool, lookupErr error) {
	if !framework.IsSet(cfg.Settings) && !framework.IsSet(cfg.secret) {
		return false, nil
	}
	p, err := meta.Plugin(ctx, plugin)
	if err != nil {
		return false, err
	}
	facts := PluginOf(p.JSON)
	if facts.SecretKeys == nil {
		return false, nil
	}
	diags.Append(checkSettingKeys(plugin, facts.SecretKeys, cfg.Settings, cfg.secret, "")...)
	if known := facts.SettingKeys; known != nil {
		for _, k := range settingKeys(cfg.Settings, func(k string) bool { return !known[k] }) {
			diags.AddAttributeWarning(settingsPath, fmt.Sprintf("Unknown setting %q", k),
				fmt.Sprintf("Plugin %d has no setting %q%s. The service stores it anyway, and the plugin ignores it.",
					plugin, k, closestHint(k, known)))
		}
	}
	return true, nil
}

// noSchemaSaid holds the providers (operations) that warned they cannot
// read a plugin's schema: once per operation is enough.
var noSchemaSaid sync.Map

// noSchemaOnce warns, in the plan of a create only, that settings wait for
// its answer: an update checks them against the facts of the last answer.
func noSchemaOnce(meta *framework.ProviderData, plugin int64, err error, diags *diag.Diagnostics) {
	if _, said := noSchemaSaid.LoadOrStore(meta, true); said {
		return
	}
	why := framework.DescribeError(err)
	if client.IsProjectScopedKey(err) {
		why = "The API key is limited to particular projects, and PostHog lets such keys read only project routes. " +
			"A key that is not limited to projects, with the plugin:read scope, can read it."
	}
	diags.AddWarning(fmt.Sprintf("Plugin settings checked after the create (plugin %d)", plugin),
		fmt.Sprintf("The provider could not read the plugin's settings schema from the organization's plugin listing, "+
			"so settings are checked once the service has answered the create, and secrets are sent only then.\n\n%s", why))
}

// closestHint names the known key nearest to k, if one is near.
func closestHint(k string, known map[string]bool) string {
	best, dist := "", len(k)/2+2
	for _, c := range slices.Sorted(maps.Keys(known)) {
		if d := levenshtein.Distance(strings.ToLower(k), strings.ToLower(c), nil); d < dist {
			best, dist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
