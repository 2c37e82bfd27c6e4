package datasources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// pluginsOfConfigs is the way round a plugin listing that refused a key
// limited to projects (DESIGN.md, "A key limited to projects still finds its
// plugins"): the plugins the provider's project's configs show in plugin_info.
// It warns of what it did; when it cannot, the error (summary) says both failures.
func pluginsOfConfigs(ctx context.Context, meta *framework.ProviderData, k framework.Kind, refused error, summary string,
	diags *diag.Diagnostics,
) ([]client.Plugin, bool) {
	project, which := meta.ProjectID, "the provider's project_id"
	if project == "" {
		project, which = client.CurrentProject, "the key owner's current project: the provider sets no project_id"
	}
	recs, err := configresource.List(ctx, meta.Client, project, k, configresource.Filter{})
	if err == nil {
		// Pages carry no plugin_info: one GET per plugin fills it.
		recs, err = meta.ReadCache().WithPluginInfo(ctx, project, k.Collection, recs)
	}
	if err != nil {
		diags.AddError(summary, fmt.Sprintf("%s\n\nReading the plugins from the %ss of project %s (%s) instead "+
			"failed too: %s", framework.DescribeError(refused), k.Noun, project, which, framework.DescribeError(err)))
		return nil, false
	}
	plugins := []client.Plugin{}
	seen := map[int64]bool{}
	for i := range recs {
		var p client.Plugin
		if seen[recs[i].Plugin] || json.Unmarshal(recs[i].PluginInfo, &p) != nil || p.ID != recs[i].Plugin {
			continue // plugin_info null or not a plugin: the config tells nothing of it
		}
		seen[p.ID] = true
		plugins = append(plugins, p)
	}
	var apiErr *client.APIError
	_ = errors.As(refused, &apiErr)
	diags.AddWarning(fmt.Sprintf("Plugins read from the %ss of project %s", k.Noun, project), fmt.Sprintf(
		"%s %s answered %d %q: PostHog lets an API key limited to particular projects call only project routes, "+
			"and the organization's plugin listing is not one.\n\n"+
			"So plugins holds the %d %s plugin(s) that the %ss of project %s use, as those configs show them. "+
			"Left out: plugins that no %s of this project uses. On today's PostHog, which makes no new configs, "+
			"the project can use no others; an older self-hosted PostHog may offer more. To list them all, use a "+
			"personal API key that is not limited to projects, with the plugin:read scope.",
		apiErr.Method, apiErr.Path, apiErr.Status, apiErr.Detail, len(plugins), k.PluginNoun, k.Noun, project, k.Noun))
	return plugins, true
}
