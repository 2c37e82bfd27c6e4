package job

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

var _ action.ActionWithModifyPlan = (*runJobAction)(nil)

// runJobAction is pipeline_KIND_run_job: the resource's job run, made
// whenever the action is invoked, with nothing kept in state.
type runJobAction struct {
	framework.ActionBase
	kind kind.Kind
}

// NewAction returns the constructor of the run-job action of kind k.
func NewAction(k kind.Kind) func() action.Action {
	return func() action.Action {
		return &runJobAction{ActionBase: framework.NewActionBase(k.TypeSuffix("run_job")), kind: k}
	}
}

// Schema implements action.Action.
func (x *runJobAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = actionSchema(x.kind)
}

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
	meta, project := x.MustProject(args.ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	progress := func(msg string) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: msg})
		}
	}
	job := args.request()
	progress(fmt.Sprintf("Starting job %q (operation %q) of %s %d in project %s",
		job.Type, job.Operation, x.kind.Noun, args.ConfigID.ValueInt64(), project))
	if runJob(ctx, meta, x.kind, project, &args, &resp.Diagnostics) {
		progress(fmt.Sprintf("The service accepted job %q of %s %d", job.Type, x.kind.Noun, args.ConfigID.ValueInt64()))
	}
}
