// Package job is the resource pipeline_KIND_job, which runs a public job of
// a config's plugin on create (again whenever triggers change), and the
// action pipeline_KIND_run_job, which runs it on every invocation.
package job

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// jobResource is pipeline_KIND_job: it runs the job on create, and every
// argument forces replacement, so any change runs it again; refresh and
// destroy call nothing.
type jobResource struct {
	framework.ResourceBase
	kind framework.Kind
}

// runJobAction is pipeline_KIND_run_job: the resource's job run, made
// whenever the action is invoked, with nothing kept in state.
type runJobAction struct {
	framework.ActionBase
	kind framework.Kind
}

// NewResource returns the constructor of the job resource of kind k.
func NewResource(k framework.Kind) func() resource.Resource {
	return func() resource.Resource { return &jobResource{framework.NewResourceBase(k.TypeSuffix("job")), k} }
}

// NewAction returns the constructor of the run-job action of kind k.
func NewAction(k framework.Kind) func() action.Action {
	return func() action.Action { return &runJobAction{framework.NewActionBase(k.TypeSuffix("run_job")), k} }
}

var (
	_ resource.ResourceWithModifyPlan = (*jobResource)(nil)
	_ action.ActionWithModifyPlan     = (*runJobAction)(nil)
)

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
	project, ok := runJob(ctx, r, r.kind, &plan.jobArgs, func(string) {}, &resp.Diagnostics)
	if !ok {
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

// ModifyPlan implements action.ActionWithModifyPlan: the job is checked
// once the provider is configured and the project known.
func (x *runJobAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	meta := x.Meta()
	if meta == nil {
		return
	}
	var args jobArgs
	resp.Diagnostics.Append(req.Config.Get(ctx, &args)...)
	if resp.Diagnostics.HasError() || args.ProjectID.IsUnknown() {
		return
	}
	if project := framework.ProjectOrDefault(args.ProjectID, meta, &resp.Diagnostics); !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(checkJob(ctx, meta, x.kind, project, &args)...)
	}
}

// Invoke runs the job, saying what it does as it goes when Terraform listens.
func (x *runJobAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var args jobArgs
	resp.Diagnostics.Append(req.Config.Get(ctx, &args)...)
	if resp.Diagnostics.HasError() {
		return
	}
	runJob(ctx, x, x.kind, &args, func(msg string) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: msg})
		}
	}, &resp.Diagnostics)
}
