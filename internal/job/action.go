package job

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

var (
	_ action.ActionWithConfigure  = (*runJobAction)(nil)
	_ action.ActionWithModifyPlan = (*runJobAction)(nil)
)

// runJobAction is the action pipeline_<kind>_run_job (Terraform 1.14+): the
// job resource's call, made whenever the action is invoked, with nothing
// kept in state.
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
func (a *runJobAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: fmt.Sprintf("Runs a public job of a %s's plugin each time the action is invoked "+
			"(Terraform 1.14+). PostHog since July 2025 runs no plugin jobs: this works with older self-hosted "+
			"instances only.", a.kind.Noun),
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Project of the config: its id or `@current`. Defaults to the " +
					"provider's `project_id`.",
				Validators: []validator.String{framework.ProjectIDValidator()},
			},
			"config_id": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: fmt.Sprintf("Identifier of the %s whose plugin runs the job.", a.kind.Noun),
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"job_type": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: jobTypeDescription,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"payload": schema.StringAttribute{
				CustomType:          jsontypes.NormalizedType{},
				Optional:            true,
				MarkdownDescription: jobPayloadDescription,
				Validators:          []validator.String{payloadObject},
			},
			"operation": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: jobOperationDescription,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

// ModifyPlan implements action.ActionWithModifyPlan: the job is checked
// against the plugin's public jobs before anything runs.
func (a *runJobAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	a.PlanCheck(ctx, req.Config, &resp.Diagnostics, func(meta *framework.ProviderData, project string) diag.Diagnostics {
		var args jobArgs
		if diags := req.Config.Get(ctx, &args); diags.HasError() {
			return diags
		}
		return checkJob(ctx, meta, a.kind, project, &args)
	})
}

// Invoke runs the job, saying what it does as it goes.
func (a *runJobAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var args jobArgs
	resp.Diagnostics.Append(req.Config.Get(ctx, &args)...)
	if resp.Diagnostics.HasError() {
		return
	}
	meta, project := a.MustProject(args.ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, framework.DefaultWriteTimeout)
	defer cancel()
	id := args.ConfigID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)
	job := args.request()

	framework.Progress(resp, fmt.Sprintf("Starting job %q (operation %q) of %s %d in project %s", job.Type, job.Operation, a.kind.Noun, id, project))
	runJob(ctx, meta.Client, a.kind, project, &args, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	framework.Progress(resp, fmt.Sprintf("The service accepted job %q of %s %d", job.Type, a.kind.Noun, id))
}
