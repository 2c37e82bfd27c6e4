package datasources

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// NewPlugins is the data source pipeline_KIND_plugins: the organization's
// plugins of the kind, all pages, with ids by name and url.
var NewPlugins = newDataSource("plugins", pluginsSchema, readPlugins)

type pluginsModel struct {
	OrganizationID types.String     `tfsdk:"organization_id"`
	Plugins        []pluginModel    `tfsdk:"plugins"`
	ByName         map[string]int64 `tfsdk:"by_name"`
	ByURL          map[string]int64 `tfsdk:"by_url"`
}

type pluginModel struct {
	ID                 types.Int64          `tfsdk:"id"`
	Name               types.String         `tfsdk:"name"`
	Description        types.String         `tfsdk:"description"`
	URL                types.String         `tfsdk:"url"`
	SettingKeys        []string             `tfsdk:"setting_keys"`
	SecretKeys         []string             `tfsdk:"secret_keys"`
	PublicJobs         jsontypes.Normalized `tfsdk:"public_jobs"`
	MigrationAvailable types.Bool           `tfsdk:"migration_available"`
	HogTemplateID      types.String         `tfsdk:"hog_function_template_id"`
}

func pluginsSchema(k framework.Kind) schema.Schema {
	return schema.Schema{
		MarkdownDescription: fmt.Sprintf("Lists the %s plugins the organization can use (its own, global ones, "+
			"and any with a config in it), so that `plugin` can name one by name or url: "+
			"`plugin = data.%s.all.by_name[%q]`. Needs the `plugin:read` scope. PostHog does not let an "+
			"API key limited to particular projects read the organization's listing: with such a key the data "+
			"source lists the plugins the configs of the provider's project use, as those configs show them, "+
			"and warns that plugins without a config there are left out.", k.PluginNoun,
			framework.ProviderTypeName+k.TypeSuffix("plugins"), k.ExamplePlugin),
		Attributes: map[string]schema.Attribute{
			"organization_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The organization, by id. Left out, `@current`: the API key owner's current organization.",
			},
			"plugins": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The plugins, by `id`.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":                  computedInt64("The plugin's id, for `plugin`."),
					"name":                computedString("The plugin's name (null when it has none)."),
					"description":         computedString("The plugin's description."),
					"url":                 computedString("Where the plugin comes from (a repository, `inline://...`); null for one written in the browser."),
					"setting_keys":        computedStrings("The keys of the plugin's settings, for `config` and `secret_config_wo`."),
					"secret_keys":         computedStrings("The settings the plugin marks secret: they go in `secret_config_wo`."),
					"public_jobs":         computedJSON("The jobs a `job` resource or action may run, with their payloads, as JSON."),
					"migration_available": computedBool("Whether the service's own `migrate` action can turn the plugin's configs into hog functions: only destination plugins with a migrator, which neither collection shows (null when the service does not say)."),
					"hog_function_template_id": computedString("The hog function template PostHog names for the plugin " +
						"(`plugin-<slug>` of its url), whether or not PostHog has it or lets it be used: the config data " +
						"sources' `hog_function` looks it up. Null for a plugin outside PostHog's repositories."),
				}},
			},
			"by_name": schema.MapAttribute{
				Computed: true, ElementType: types.Int64Type,
				MarkdownDescription: "Plugin ids by name. A name that several plugins share is left out (a warning names it): use `by_url`.",
			},
			"by_url": schema.MapAttribute{
				Computed: true, ElementType: types.Int64Type,
				MarkdownDescription: "Plugin ids by url.",
			},
		},
	}
}

func readPlugins(ctx context.Context, d *dataSource[pluginsModel], m *pluginsModel, diags *diag.Diagnostics) {
	meta := d.MustMeta(diags)
	if diags.HasError() {
		return
	}
	ctx, cancel := framework.DataSourceContext(ctx)
	defer cancel()
	if !framework.IsSet(m.OrganizationID) {
		m.OrganizationID = types.StringValue(client.CurrentOrganization)
	}
	org := m.OrganizationID.ValueString()
	plugins, err := meta.Client.ListPlugins(ctx, org, d.kind.Collection.PluginListing())
	summary := fmt.Sprintf("Could not list the %s plugins of organization %s", d.kind.PluginNoun, org)
	switch {
	case client.IsProjectScopedKey(err):
		if plugins = pluginsOfConfigs(ctx, meta, d.kind, err, summary, diags); diags.HasError() {
			return
		}
	case err != nil:
		framework.AddAPIError(diags, summary, err, nil)
		return
	}
	slices.SortFunc(plugins, func(a, b client.Plugin) int { return cmp.Compare(a.ID, b.ID) })
	m.ByName, m.ByURL = map[string]int64{}, map[string]int64{}
	shared := map[string]bool{}
	m.Plugins = make([]pluginModel, 0, len(plugins))
	for i := range plugins {
		p := &plugins[i]
		m.Plugins = append(m.Plugins, pluginOf(p))
		if p.Name != nil && strings.TrimSpace(*p.Name) != "" {
			if _, dup := m.ByName[*p.Name]; dup {
				shared[*p.Name] = true
			}
			m.ByName[*p.Name] = p.ID
		}
		if p.URL != nil && *p.URL != "" {
			m.ByURL[*p.URL] = p.ID
		}
	}
	for _, name := range slices.Sorted(maps.Keys(shared)) {
		delete(m.ByName, name)
		diags.AddAttributeWarning(path.Root("by_name"), fmt.Sprintf("Several plugins are named %q", name),
			fmt.Sprintf("by_name leaves %q out, since more than one %s plugin has that name: pick one by url "+
				"(by_url) or from plugins.", name, d.kind.PluginNoun))
	}
}

func pluginOf(p *client.Plugin) pluginModel {
	facts := configresource.PluginOf(p.JSON)
	out := pluginModel{
		ID:          types.Int64Value(p.ID),
		Name:        types.StringPointerValue(p.Name),
		Description: types.StringPointerValue(p.Description),
		URL:         types.StringPointerValue(p.URL),
		// [], not null, for a plugin without settings.
		SettingKeys:        append([]string{}, slices.Sorted(maps.Keys(facts.SettingKeys))...),
		SecretKeys:         append([]string{}, slices.Sorted(maps.Keys(facts.SecretKeys))...),
		PublicJobs:         configresource.JSONValue(p.PublicJobs),
		HogTemplateID:      types.StringNull(),
		MigrationAvailable: types.BoolPointerValue(p.MigrationAvailable),
	}
	if id, ok := HogTemplateID(p.URL); ok {
		out.HogTemplateID = types.StringValue(id)
	}
	return out
}

// pluginsOfConfigs is the way round a plugin listing that refused a key
// limited to projects (DESIGN.md, "A key limited to projects still finds its
// plugins"): the plugins the provider's project's configs show in plugin_info.
// It warns of what it did; when it cannot, the error (summary) says both failures.
func pluginsOfConfigs(ctx context.Context, meta *framework.ProviderData, k framework.Kind, refused error, summary string,
	diags *diag.Diagnostics,
) []client.Plugin {
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
		return nil
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
	return plugins
}
