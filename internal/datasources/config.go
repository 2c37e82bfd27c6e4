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
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

var _ datasource.DataSourceWithConfigure = (*configDataSource)(nil)

// configDataSource is the data source pipeline_<kind>_config: one record by id.
type configDataSource struct {
	framework.DataSourceBase
	kind kind.Kind
}

// NewConfig returns the constructor of the config data source of kind k.
func NewConfig(k kind.Kind) func() datasource.DataSource {
	return func() datasource.DataSource {
		return &configDataSource{DataSourceBase: framework.NewDataSourceBase(k.ConfigTypeSuffix()), kind: k}
	}
}

// Schema implements datasource.DataSource.
func (d *configDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := recordDataSourceAttributes(d.kind)
	attrs["id"] = schema.Int64Attribute{
		Required:            true,
		MarkdownDescription: fmt.Sprintf("Identifier of the %s to read.", d.kind.Noun),
		Validators:          []validator.Int64{int64validator.AtLeast(1)},
	}
	attrs["project_id"] = projectIDArgument("config")
	resp.Schema = schema.Schema{
		MarkdownDescription: fmt.Sprintf("Reads one %s by its id, with everything PostHog shows about it: also "+
			"what the resource `%s` does not keep, such as the plugin's settings schema and jobs.",
			d.kind.Noun, d.kind.ConfigTypeName()),
		Attributes: attrs,
	}
}

// Read makes one GET.
func (d *configDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m record.Model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	meta, project := d.MustProject(m.ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := m.ID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)
	rec, err := meta.Client.Get(ctx, project, d.kind.Collection, id)
	if err != nil {
		summary := fmt.Sprintf("Could not read %s %d", d.kind.Noun, id)
		if client.IsNotFound(err) {
			resp.Diagnostics.AddAttributeError(path.Root("id"), summary, fmt.Sprintf(
				"Project %s has no %s with id %d: the id is unknown, or it is a config of another kind "+
					"(the service shows each config in one collection only).\n\n%s",
				project, d.kind.Noun, id, framework.DescribeError(err)))
			return
		}
		framework.AddAPIError(&resp.Diagnostics, summary, err, nil)
		return
	}
	m.ProjectID = types.StringValue(project)
	m.FromRecord(rec)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
