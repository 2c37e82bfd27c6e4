package configresource

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

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
