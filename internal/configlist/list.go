package configlist

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

var _ list.ListResourceWithConfigure = (*configListResource)(nil)

// configListResource is the list resource pipeline_<kind>_config. Metadata
// and Configure take a resource's requests, so the resource base serves.
type configListResource struct {
	framework.ResourceBase
	kind kind.Kind
}

type configListModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	Enabled   types.Bool   `tfsdk:"enabled"`
	Plugin    types.Int64  `tfsdk:"plugin"`
}

// New returns the constructor of the list resource of kind k.
func New(k kind.Kind) func() list.ListResource {
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

// List lists every page of the collection. A failure is pushed as a result
// carrying the diagnostics; otherwise one result per record, up to the
// requested limit. With the resource objects, one config of each plugin
// is read for its plugin_info (readcache), so that `config` leaves the
// plugin's secret settings out as the resource does.
func (l *configListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	var cfg configListModel
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	meta, project := l.MustProject(cfg.ProjectID, &diags)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	// A list block has no timeouts: the default read limit bounds the
	// requests, as it does a data source's.
	apiCtx, cancel := context.WithTimeout(ctx, framework.DefaultReadTimeout)
	defer cancel()
	recs, err := record.List(apiCtx, meta.Client, project, l.kind, record.Filter{Enabled: cfg.Enabled, Plugin: cfg.Plugin})
	if err != nil {
		framework.AddAPIError(&diags, fmt.Sprintf("Could not list the %ss of project %s", l.kind.Noun, project), err, nil)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	if req.Limit > 0 && int64(len(recs)) > req.Limit {
		recs = recs[:req.Limit]
	}
	var noTimeouts timeouts.Value
	if req.IncludeResource {
		if noTimeouts, diags = nullTimeouts(ctx, req); diags.HasError() {
			stream.Results = list.ListResultsStreamDiagnostics(diags)
			return
		}
		// The resource object shows `config`: pages carry no plugin_info to
		// tell the plugin's secret settings, which the service leaves
		// unmasked when they are "" or null.
		if recs, err = meta.ReadCache().WithPluginInfo(apiCtx, project, l.kind.Collection, recs); err != nil {
			framework.AddAPIError(&diags, fmt.Sprintf("Could not read the %ss of project %s", l.kind.Noun, project), err, nil)
			stream.Results = list.ListResultsStreamDiagnostics(diags)
			return
		}
	}
	stream.Results = func(push func(list.ListResult) bool) {
		for i := range recs {
			if !push(l.result(ctx, req, project, &recs[i], noTimeouts)) {
				return
			}
		}
	}
}

// result is the list result of one record: its identity, a display name
// and, when asked, the resource object the config resource would hold,
// with order left null.
func (l *configListResource) result(ctx context.Context, req list.ListRequest, project string, rec *client.Record, noTimeouts timeouts.Value) list.ListResult {
	res := req.NewListResult(ctx)
	var m configresource.Model
	m.ProjectID = types.StringValue(project)
	secrets, _ := record.SecretKeys(rec.PluginInfo)
	m.FromRecord(rec, secrets)
	res.DisplayName = fmt.Sprintf("%s (id %d)", m.Name.ValueString(), rec.ID)
	if m.Name.IsNull() {
		res.DisplayName = fmt.Sprintf("%s %d", l.kind.Noun, rec.ID)
	}
	res.Diagnostics.Append(configresource.SetIdentity(ctx, res.Identity, &m.Config)...)
	if req.IncludeResource {
		m.Timeouts = noTimeouts
		// What -generate-config-out writes: order stays the service's (or an
		// order resource's), as with order left out, so that the generated
		// configuration never fights a pipeline_KIND_order.
		m.Order = types.Int64Null()
		res.Diagnostics.Append(res.Resource.Set(ctx, &m)...)
	}
	return res
}

// nullTimeouts is a null timeouts block of the config resource's schema.
func nullTimeouts(ctx context.Context, req list.ListRequest) (timeouts.Value, diag.Diagnostics) {
	typ, diags := req.ResourceSchema.TypeAtPath(ctx, path.Root("timeouts"))
	if diags.HasError() {
		return timeouts.Value{}, diags
	}
	v, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(typ.TerraformType(ctx), nil))
	t, ok := v.(timeouts.Value)
	if err != nil || !ok {
		diags.AddError("Unexpected timeouts type", fmt.Sprintf("The config resource's timeouts are a %T (%v). "+
			"This is a bug in the provider.", v, err))
	}
	return t, diags
}
