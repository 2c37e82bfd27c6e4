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
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// NewConfig is the data source pipeline_KIND_config: one record by id, one GET.
var NewConfig = newDataSource("config", configSchema, readConfig)

func configSchema(k kind.Kind) schema.Schema {
	attrs := recordDataSourceAttributes(k)
	attrs["id"] = schema.Int64Attribute{
		Required:            true,
		MarkdownDescription: fmt.Sprintf("Identifier of the %s to read.", k.Noun),
		Validators:          []validator.Int64{int64validator.AtLeast(1)},
	}
	attrs["project_id"] = projectIDArgument("config")
	return schema.Schema{
		MarkdownDescription: fmt.Sprintf("Reads one %s by its id, with everything PostHog shows about it: also "+
			"what the resource `%s` does not keep, such as the plugin's settings schema and jobs.",
			k.Noun, k.ConfigTypeName()),
		Attributes: attrs,
	}
}

func readConfig(ctx context.Context, d *dataSource[record.Model], m *record.Model, diags *diag.Diagnostics) {
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
}
