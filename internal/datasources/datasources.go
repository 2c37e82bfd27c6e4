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
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

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
