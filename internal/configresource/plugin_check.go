package configresource

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// checkAgainstPlugin checks configured settings against the plugin's
// config_schema (from the organization's plugin listing, once per
// operation): keys in the wrong attribute are refused, unknown ones warned
// about. It reports whether the schema told; a key that may not read the
// listing leaves the check to the create's answer.
func (r *configResource) checkAgainstPlugin(ctx context.Context, meta *framework.ProviderData, plugin int64, cfg *configured,
	diags *diag.Diagnostics,
) bool {
	if !framework.IsSet(cfg.Settings) && !framework.IsSet(cfg.secret) {
		return false
	}
	p, err := meta.Plugin(ctx, plugin)
	if err != nil {
		noSchemaOnce(meta, plugin, err, diags)
		return false
	}
	facts := record.PluginOf(p.JSON)
	if facts.SecretKeys == nil {
		return false
	}
	diags.Append(checkSettingKeys(plugin, facts.SecretKeys, cfg.Settings, cfg.secret, "")...)
	if known := facts.SettingKeys; known != nil {
		for _, k := range settingKeys(cfg.Settings, func(k string) bool { return !known[k] }) {
			diags.AddAttributeWarning(settingsPath, fmt.Sprintf("Unknown setting %q", k),
				fmt.Sprintf("Plugin %d has no setting %q%s. The service stores it anyway, and the plugin ignores it.",
					plugin, k, closestHint(k, known)))
		}
	}
	return true
}

// noSchemaSaid holds the providers (operations) that warned they cannot
// read a plugin's schema.
var noSchemaSaid sync.Map

// noSchemaOnce warns, once per operation, that settings are checked only
// once the service has answered the create.
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
