// Package datasources holds the data sources of each kind: _config,
// _configs, _config_frontend and _plugins. Plural, so as not to shadow the
// framework's datasource.
package datasources

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
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

// dataSource is one data source of a kind: its schema, and its read of the
// model M from the configuration.
type dataSource[M any] struct {
	framework.DataSourceBase
	kind     framework.Kind
	schemaOf func(framework.Kind) schema.Schema
	read     func(ctx context.Context, d *dataSource[M], m *M, diags *diag.Diagnostics)
}

// newDataSource returns the constructors of pipeline_KIND_<construct>.
func newDataSource[M any](construct string, schemaOf func(framework.Kind) schema.Schema,
	read func(ctx context.Context, d *dataSource[M], m *M, diags *diag.Diagnostics),
) func(framework.Kind) func() datasource.DataSource {
	return func(k framework.Kind) func() datasource.DataSource {
		return func() datasource.DataSource {
			return &dataSource[M]{DataSourceBase: framework.NewDataSourceBase(k.TypeSuffix(construct)), kind: k, schemaOf: schemaOf, read: read}
		}
	}
}

var _ datasource.DataSourceWithConfigure = (*dataSource[recordModel])(nil)

// Schema implements datasource.DataSource.
func (d *dataSource[M]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = d.schemaOf(d.kind)
}

// Read implements datasource.DataSource.
func (d *dataSource[M]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m M
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	d.read(ctx, d, &m, &resp.Diagnostics)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}

// recordModel is one config record as the data sources show it.
type recordModel struct {
	configresource.RecordModel
	Deleted         types.Bool           `tfsdk:"deleted"`
	Error           jsontypes.Normalized `tfsdk:"error"`
	PluginInfo      jsontypes.Normalized `tfsdk:"plugin_info"`
	DeliveryRate24h jsontypes.Normalized `tfsdk:"delivery_rate_24h"`
	TeamID          types.Int64          `tfsdk:"team_id"`
	// HogFunction is the config's way off, which the data sources look up
	// (Successors.Of); FromRecord leaves it as it is.
	HogFunction *HogFunction `tfsdk:"hog_function"`
}

// FromRecord sets every attribute but project_id and hog_function from rec.
func (m *recordModel) FromRecord(rec *client.Record) {
	m.RecordModel.FromRecord(rec)
	m.PluginInfo = configresource.JSONValue(rec.PluginInfo)
	m.Deleted = types.BoolValue(rec.Deleted)
	m.Error = configresource.JSONValue(rec.Error)
	m.DeliveryRate24h = configresource.JSONValue(rec.DeliveryRate24h)
	m.TeamID = types.Int64Value(rec.TeamID)
}

func computedString(description string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: description}
}

func computedJSON(description string) schema.StringAttribute {
	return schema.StringAttribute{CustomType: jsontypes.NormalizedType{}, Computed: true, MarkdownDescription: description}
}

func computedInt64(description string) schema.Int64Attribute {
	return schema.Int64Attribute{Computed: true, MarkdownDescription: description}
}

func computedBool(description string) schema.BoolAttribute {
	return schema.BoolAttribute{Computed: true, MarkdownDescription: description}
}

func computedStrings(description string) schema.ListAttribute {
	return schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: description}
}

// recordDataSourceAttributes are recordModel's attributes, read-only.
func recordDataSourceAttributes(k framework.Kind) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":          computedInt64("Identifier of the config."),
		"project_id":  computedString("Project of the config."),
		"plugin":      computedInt64(fmt.Sprintf("Identifier of the %s plugin.", k.PluginNoun)),
		"enabled":     computedBool("Whether the config runs."),
		"order":       computedInt64("Position of the config among the project's configs."),
		"name":        computedString("Name of the config; the plugin's name when the config has none."),
		"description": computedString("Description of the config; the plugin's description when the config has none."),
		"filters": schema.StringAttribute{
			CustomType:          configresource.FiltersType{},
			Computed:            true,
			MarkdownDescription: "Which events the config applies to (JSON), or null; PostHog since August 2024 has none.",
		},
		"deleted":           computedBool("Whether the config was deleted."),
		"hog_function":      hogFunctionAttribute(),
		"config":            computedJSON("Non-secret plugin settings of the config, as a JSON object string (secret ones are left out)."),
		"error":             computedJSON("Last error the plugin reported for the config, as JSON text, or null."),
		"plugin_info":       computedJSON("What the service tells about the plugin (its name, settings schema, jobs), as a JSON string."),
		"delivery_rate_24h": computedJSON("Delivery rate over the last 24 hours, as JSON text; null on today's PostHog."),
		"team_id":           computedInt64("Identifier of the project (team) the config belongs to."),
		"created_at":        computedString("When the config was created (ISO 8601, UTC)."),
		"updated_at":        computedString("When the config was last changed (ISO 8601, UTC)."),
	}
}

// projectIDArgument is the optional project_id every data source takes.
func projectIDArgument(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: fmt.Sprintf("Project of the %s: a project id or `@current`. Defaults to the "+
			"provider's `project_id`.", what),
		Validators: []validator.String{framework.ProjectIDValidator()},
	}
}

// configIDArgument is the required id of the config a data source reads.
func configIDArgument(description string) schema.Int64Attribute {
	return schema.Int64Attribute{Required: true, MarkdownDescription: description, Validators: []validator.Int64{int64validator.AtLeast(1)}}
}

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
