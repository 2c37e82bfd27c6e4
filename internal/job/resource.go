package job

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

var (
	_ resource.ResourceWithConfigure  = (*jobResource)(nil)
	_ resource.ResourceWithModifyPlan = (*jobResource)(nil)
)

// jobResource is the resource pipeline_<kind>_job: an event resource that
// runs a job of a config's plugin on create. Every argument forces
// replacement, so any change (triggers above all) runs the job again;
// refresh calls nothing.
type jobResource struct {
	framework.EventResource
	kind kind.Kind
}

// NewResource returns the constructor of the job resource of kind k.
func NewResource(k kind.Kind) func() resource.Resource {
	return func() resource.Resource {
		return &jobResource{EventResource: framework.NewEventResource(k.TypeSuffix("job")), kind: k}
	}
}

// Schema implements resource.Resource.
func (r *jobResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = resourceSchema(r.kind)
}

// ModifyPlan implements resource.ResourceWithModifyPlan: project_id
// defaults to the provider's, and a planned run is checked against the
// plugin's public jobs.
func (r *jobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	w := framework.ProjectWitness{Collection: r.kind.Collection, IDAttribute: "config_id"}
	r.PlanCreate(ctx, req, resp, w, func(meta *framework.ProviderData, project string) diag.Diagnostics {
		var plan model
		if diags := resp.Plan.Get(ctx, &plan); diags.HasError() {
			return diags
		}
		return checkJob(ctx, meta, r.kind, project, &plan.jobArgs)
	})
}

// Create runs the job.
func (r *jobResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	meta, project := r.MustProject(plan.ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, framework.DefaultWriteTimeout)
	defer cancel()
	ctx = tflog.SetField(ctx, "config_id", plan.ConfigID.ValueInt64())

	runJob(ctx, meta.Client, r.kind, project, &plan.jobArgs, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ranAt := time.Now().UTC().Format(time.RFC3339Nano)
	tflog.Info(ctx, "job accepted", map[string]any{"job_type": plan.JobType.ValueString()})
	plan.ProjectID = types.StringValue(project)
	plan.RanAt = types.StringValue(ranAt)
	plan.ID = types.StringValue(fmt.Sprintf("%s/%d/%s", project, plan.ConfigID.ValueInt64(), ranAt))
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete calls nothing: a job that ran cannot be undone.
func (r *jobResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
