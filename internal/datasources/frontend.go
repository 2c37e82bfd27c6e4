package datasources

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

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
