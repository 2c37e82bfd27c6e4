// The list resource pipeline_KIND_config for `terraform query`: each
// record's identity and, when asked, its resource object.

package configresource

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

var _ list.ListResourceWithConfigure = (*configListResource)(nil)

// configListResource is the list resource pipeline_<kind>_config; the
// resource base serves its Metadata and Configure.
type configListResource struct {
	framework.ResourceBase
	kind framework.Kind
}

type configListModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	Filter
}

// NewList returns the constructor of the list resource of kind k.
func NewList(k framework.Kind) func() list.ListResource {
	return func() list.ListResource {
		return &configListResource{ResourceBase: framework.NewResourceBase(k.ConfigTypeSuffix()), kind: k}
	}
}

// ListResourceConfigSchema implements list.ListResource.
func (l *configListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: fmt.Sprintf("Lists the %ss of a project for `terraform query`, to bring them under "+
			"Terraform.", l.kind.Noun),
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Project to list: its id or `@current`. Defaults to the provider's " +
					"`project_id`.",
				Validators: []validator.String{framework.ProjectIDValidator()},
			},
			"enabled": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Only configs with this `enabled` flag. Left out, both.",
			},
			"plugin": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: "Only configs of this plugin id.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
		},
	}
}

// List lists every page of the collection: one result per record, up to
// the limit, or one result carrying the error.
func (l *configListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	project, recs, diags := l.records(ctx, req)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		for i := range recs {
			if !push(l.result(ctx, req, project, &recs[i])) {
				return
			}
		}
	}
}

func (l *configListResource) records(ctx context.Context, req list.ListRequest) (string, []client.Record, diag.Diagnostics) {
	var cfg configListModel
	diags := req.Config.Get(ctx, &cfg)
	if diags.HasError() {
		return "", nil, diags
	}
	meta, project := l.MustProject(cfg.ProjectID, &diags)
	if diags.HasError() {
		return "", nil, diags
	}
	// A list block has no timeouts: the default read limit bounds it.
	ctx, cancel := context.WithTimeout(ctx, framework.DefaultReadTimeout)
	defer cancel()
	recs, err := List(ctx, meta.Client, project, l.kind, cfg.Filter)
	if err != nil {
		framework.AddAPIError(&diags, fmt.Sprintf("Could not list the %ss of project %s", l.kind.Noun, project), err, nil)
		return "", nil, diags
	}
	if req.Limit > 0 && int64(len(recs)) > req.Limit {
		recs = recs[:req.Limit]
	}
	if !req.IncludeResource {
		return project, recs, diags
	}
	// Pages carry no plugin_info to tell the secret settings, which the
	// service leaves unmasked when they are "" or null.
	if recs, err = meta.ReadCache().WithPluginInfo(ctx, project, l.kind.Collection, recs); err != nil {
		framework.AddAPIError(&diags, fmt.Sprintf("Could not read the %ss of project %s", l.kind.Noun, project), err, nil)
	}
	return project, recs, diags
}

// result is the list result of one record: its identity, a display name
// and, when asked, the config resource's object.
func (l *configListResource) result(ctx context.Context, req list.ListRequest, project string, rec *client.Record) list.ListResult {
	res := req.NewListResult(ctx)
	var m Model
	m.ProjectID = types.StringValue(project)
	m.FromRecord(rec)
	res.DisplayName = fmt.Sprintf("%s (id %d)", m.Name.ValueString(), rec.ID)
	if m.Name.IsNull() {
		res.DisplayName = fmt.Sprintf("%s %d", l.kind.Noun, rec.ID)
	}
	res.Diagnostics.Append(SetIdentity(ctx, res.Identity, &m.RecordModel)...)
	if req.IncludeResource {
		// A null timeouts block of the resource's type.
		res.Diagnostics.Append(res.Resource.GetAttribute(ctx, path.Root(timeoutsBlock), &m.Timeouts)...)
		// Left out of generated configuration, so that it never fights a
		// pipeline_KIND_order.
		m.Order = types.Int64Null()
		res.Diagnostics.Append(res.Resource.Set(ctx, &m)...)
	}
	return res
}

// Filter narrows a collection's records for the list data source and the
// list resource; null attributes do not narrow.
type Filter struct {
	Enabled types.Bool  `tfsdk:"enabled"`
	Plugin  types.Int64 `tfsdk:"plugin"`
}

// List returns every record of the kind's collection in project that passes
// f, by order and then id (the service promises no order). A soft-deleted
// record never passes, even on a page that held one.
func List(ctx context.Context, c *client.Client, project string, k framework.Kind, f Filter) ([]client.Record, error) {
	all, err := c.ListAll(ctx, project, k.Collection)
	if err != nil {
		return nil, err
	}
	out := slices.DeleteFunc(all, func(rec client.Record) bool {
		return rec.Deleted ||
			framework.IsSet(f.Enabled) && rec.Enabled != f.Enabled.ValueBool() ||
			framework.IsSet(f.Plugin) && rec.Plugin != f.Plugin.ValueInt64()
	})
	SortByOrder(out)
	return out, nil
}

// SortByOrder sorts records by order, then id.
func SortByOrder(recs []client.Record) {
	slices.SortStableFunc(recs, func(a, b client.Record) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.ID, b.ID))
	})
}
