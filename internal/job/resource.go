package job

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

var _ resource.ResourceWithModifyPlan = (*jobResource)(nil)

// jobResource is pipeline_KIND_job: it runs the job on create, and every
// argument forces replacement, so any change runs it again; refresh and
// destroy call nothing.
type jobResource struct {
	framework.ResourceBase
	kind kind.Kind
}

// NewResource returns the constructor of the job resource of kind k.
func NewResource(k kind.Kind) func() resource.Resource {
	return func() resource.Resource {
		return &jobResource{ResourceBase: framework.NewResourceBase(k.TypeSuffix("job")), kind: k}
	}
}

// Schema implements resource.Resource.
func (r *jobResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = resourceSchema(r.kind)
}

// ModifyPlan implements resource.ResourceWithModifyPlan: project_id
// defaults to the provider's, and a planned create is checked once the
// provider and project are known (a replacement is planned as a create).
func (r *jobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	meta := r.Meta()
	framework.PlanProjectID(ctx, meta, framework.ProjectWitness{Collection: r.kind.Collection, IDAttribute: "config_id"}, req, resp)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || meta == nil {
		return
	}
	var plan model
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() && framework.IsSet(plan.ProjectID) {
		resp.Diagnostics.Append(checkJob(ctx, meta, r.kind, plan.ProjectID.ValueString(), &plan.jobArgs)...)
	}
}

// Create runs the job, once.
func (r *jobResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	meta, project := r.MustProject(plan.ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !runJob(ctx, meta, r.kind, project, &plan.jobArgs, &resp.Diagnostics) {
		return
	}
	plan.ProjectID = types.StringValue(project)
	plan.RanAt = types.StringValue(time.Now().UTC().Format(time.RFC3339Nano))
	plan.ID = types.StringValue(fmt.Sprintf("%s/%d/%s", project, plan.ConfigID.ValueInt64(), plan.RanAt.ValueString()))
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read calls nothing: a run is past, there is nothing to refresh.
func (*jobResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

// Update happens only when nothing that matters changed (project_id written
// in the other form): the plan becomes the state.
func (*jobResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

// Delete calls nothing: a job that ran cannot be undone.
func (*jobResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
