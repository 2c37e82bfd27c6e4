package datasources

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

var _ datasource.DataSourceWithConfigure = (*frontendDataSource)(nil)

// frontendDataSource is the data source pipeline_<kind>_config_frontend.
type frontendDataSource struct {
	framework.DataSourceBase
	kind kind.Kind
}

type frontendDataSourceModel struct {
	ProjectID   types.String `tfsdk:"project_id"`
	ConfigID    types.Int64  `tfsdk:"config_id"`
	Content     types.String `tfsdk:"content"`
	ContentType types.String `tfsdk:"content_type"`
}

// NewFrontend returns the constructor of the frontend data source of kind k.
func NewFrontend(k kind.Kind) func() datasource.DataSource {
	return func() datasource.DataSource {
		return &frontendDataSource{DataSourceBase: framework.NewDataSourceBase(k.ConfigTypeSuffix() + "_frontend"), kind: k}
	}
}

// Schema implements datasource.DataSource.
func (d *frontendDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: fmt.Sprintf("Reads the frontend of a %s's plugin, the JavaScript PostHog serves "+
			"for it. Today's PostHog serves it to browser sessions only, not to API keys.", d.kind.Noun),
		Attributes: map[string]schema.Attribute{
			"project_id": projectIDArgument("config"),
			"config_id": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: fmt.Sprintf("Identifier of the %s.", d.kind.Noun),
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"content":      computedString("The frontend source, as text."),
			"content_type": computedString("The media type PostHog sent, e.g. `application/javascript; charset=UTF-8`."),
		},
	}
}

// Read makes one GET of the frontend action.
func (d *frontendDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m frontendDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	meta, project := d.MustProject(m.ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := m.ConfigID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)
	fe, err := meta.Client.Frontend(ctx, project, d.kind.Collection, id)
	if err != nil {
		summary := fmt.Sprintf("Could not read the frontend of %s %d", d.kind.Noun, id)
		if client.IsNotFound(err) {
			resp.Diagnostics.AddAttributeError(path.Root("config_id"), summary, fmt.Sprintf(
				"Project %s has no %s with id %d.\n\n%s", project, d.kind.Noun, id, framework.DescribeError(err)))
			return
		}
		framework.AddCustomActionError(&resp.Diagnostics, summary, framework.ActionFrontend, err, nil)
		return
	}
	m.ProjectID = types.StringValue(project)
	m.Content = types.StringValue(fe.Content)
	m.ContentType = types.StringValue(fe.ContentType)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
