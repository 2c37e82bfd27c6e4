package datasources

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// NewConfigs is the data source pipeline_KIND_configs: every record of a
// project, with each plugin's plugin_info (client.ReadCache).
var NewConfigs = newDataSource("configs", configsSchema, readConfigs)

type configsDataSourceModel struct {
	ProjectID      types.String  `tfsdk:"project_id"`
	Enabled        types.Bool    `tfsdk:"enabled"`
	Plugin         types.Int64   `tfsdk:"plugin"`
	IncludeDeleted types.Bool    `tfsdk:"include_deleted"` // deprecated: no effect
	Configs        []recordModel `tfsdk:"configs"`
}

func configsSchema(k framework.Kind) schema.Schema {
	return schema.Schema{
		MarkdownDescription: fmt.Sprintf("Lists every %s of a project, optionally only those with a given "+
			"`enabled` flag or `plugin`.", k.Noun),
		Attributes: map[string]schema.Attribute{
			"project_id": projectIDArgument("configs"),
			"enabled": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Only configs with this `enabled` flag. Left out, both.",
			},
			"plugin": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: "Only configs of this plugin id.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"include_deleted": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("**Deprecated: has no effect**, since PostHog never lists deleted "+
					"configs. Read a deleted config by id with the data source `%s`.", k.ConfigTypeName()),
				DeprecationMessage: fmt.Sprintf("include_deleted has no effect and will be removed in the next major "+
					"version: the service never lists soft-deleted configs, so no list can show them. Remove the "+
					"argument; to see a soft-deleted config, read it by id with the data source %s (its deleted "+
					"attribute is true).", k.ConfigTypeName()),
			},
			"configs": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The configs, by `order` and then `id`.",
				NestedObject:        schema.NestedAttributeObject{Attributes: recordDataSourceAttributes(k)},
			},
		},
	}
}

func readConfigs(ctx context.Context, d *dataSource[configsDataSourceModel], m *configsDataSourceModel, diags *diag.Diagnostics) {
	meta, project := d.MustProject(m.ProjectID, diags)
	if diags.HasError() {
		return
	}
	ctx, cancel := framework.DataSourceContext(ctx)
	defer cancel()
	recs, err := configresource.List(ctx, meta.Client, project, d.kind, configresource.Filter{Enabled: m.Enabled, Plugin: m.Plugin})
	if err == nil {
		// Pages carry no plugin_info: without it `config` would show the
		// secret settings the service leaves unmasked ("" and null).
		recs, err = meta.ReadCache().WithPluginInfo(ctx, project, d.kind.Collection, recs)
	}
	if err != nil {
		framework.AddAPIError(diags, fmt.Sprintf("Could not list the %ss of project %s", d.kind.Noun, project), err, nil)
		return
	}
	m.ProjectID = types.StringValue(project)
	m.Configs = make([]recordModel, len(recs))
	succ := NewSuccessors(meta.Client, project)
	for i := range recs {
		m.Configs[i].ProjectID = m.ProjectID
		m.Configs[i].FromRecord(&recs[i])
		m.Configs[i].HogFunction = succ.Of(ctx, d.kind.Collection, &recs[i])
	}
	succ.Warn(diags)
}

// NewConfig is the data source pipeline_KIND_config: one record by id, one GET.
var NewConfig = newDataSource("config", configSchema, readConfig)

func configSchema(k framework.Kind) schema.Schema {
	attrs := recordDataSourceAttributes(k)
	attrs["id"] = configIDArgument(fmt.Sprintf("Identifier of the %s to read.", k.Noun))
	attrs["project_id"] = projectIDArgument("config")
	return schema.Schema{
		MarkdownDescription: fmt.Sprintf("Reads one %s by its id, with everything PostHog shows about it: also "+
			"what the resource `%s` does not keep, such as the plugin's settings schema and jobs.",
			k.Noun, k.ConfigTypeName()),
		Attributes: attrs,
	}
}

func readConfig(ctx context.Context, d *dataSource[recordModel], m *recordModel, diags *diag.Diagnostics) {
	meta, project := d.MustProject(m.ProjectID, diags)
	if diags.HasError() {
		return
	}
	id := m.ID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)
	rec, err := meta.Client.Get(ctx, project, d.kind.Collection, id)
	if err != nil {
		summary := fmt.Sprintf("Could not read %s %d", d.kind.Noun, id)
		if client.IsNotFound(err) {
			diags.AddAttributeError(path.Root("id"), summary, fmt.Sprintf(
				"Project %s has no %s with id %d: the id is unknown, or it is a config of another kind "+
					"(the service shows each config in one collection only).\n\n%s",
				project, d.kind.Noun, id, framework.DescribeError(err)))
			return
		}
		framework.AddAPIError(diags, summary, err, nil)
		return
	}
	m.ProjectID = types.StringValue(project)
	m.FromRecord(rec)
	succ := NewSuccessors(meta.Client, project)
	m.HogFunction = succ.Of(ctx, d.kind.Collection, rec)
	succ.Warn(diags)
}

// NewFrontend is the data source pipeline_KIND_config_frontend: one GET of
// the frontend action.
var NewFrontend = newDataSource("config_frontend", frontendSchema, readFrontend)

type frontendDataSourceModel struct {
	ProjectID   types.String `tfsdk:"project_id"`
	ConfigID    types.Int64  `tfsdk:"config_id"`
	Content     types.String `tfsdk:"content"`
	ContentType types.String `tfsdk:"content_type"`
}

func frontendSchema(k framework.Kind) schema.Schema {
	return schema.Schema{
		MarkdownDescription: fmt.Sprintf("Reads the frontend of a %s's plugin, the JavaScript PostHog serves "+
			"for it. Today's PostHog serves it to browser sessions only, not to API keys.", k.Noun),
		Attributes: map[string]schema.Attribute{
			"project_id":   projectIDArgument("config"),
			"config_id":    configIDArgument(fmt.Sprintf("Identifier of the %s.", k.Noun)),
			"content":      computedString("The frontend source, as text."),
			"content_type": computedString("The media type PostHog sent, e.g. `application/javascript; charset=UTF-8`."),
		},
	}
}

func readFrontend(ctx context.Context, d *dataSource[frontendDataSourceModel], m *frontendDataSourceModel, diags *diag.Diagnostics) {
	meta, project := d.MustProject(m.ProjectID, diags)
	if diags.HasError() {
		return
	}
	id := m.ConfigID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)
	fe, err := meta.Client.Frontend(ctx, project, d.kind.Collection, id)
	if err != nil {
		summary := fmt.Sprintf("Could not read the frontend of %s %d", d.kind.Noun, id)
		if client.IsNotFound(err) {
			diags.AddAttributeError(path.Root("config_id"), summary, fmt.Sprintf(
				"Project %s has no %s with id %d.\n\n%s", project, d.kind.Noun, id, framework.DescribeError(err)))
			return
		}
		framework.AddCustomActionError(diags, summary, client.ActionFrontend, err, nil)
		return
	}
	m.ProjectID = types.StringValue(project)
	m.Content = types.StringValue(fe.Content)
	m.ContentType = types.StringValue(fe.ContentType)
}
