// Package job is the resource pipeline_KIND_job, which runs a public job of
// a config's plugin on create (again whenever triggers change), and the
// action pipeline_KIND_run_job, which runs it on every invocation.
package job

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// jobResource is pipeline_KIND_job.
type jobResource struct {
	framework.ResourceBase
	kind framework.Kind
}

// runJobAction is pipeline_KIND_run_job, which keeps nothing in state.
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

type model struct {
	jobArgs
	ID       types.String `tfsdk:"id"`
	Triggers types.Map    `tfsdk:"triggers"`
	RanAt    types.String `tfsdk:"ran_at"`
}

// Descriptions shared by the job resource and the run-job action.
const (
	projectIDDescription    = "Project of the config: its id or `@current`. Defaults to the provider's `project_id`."
	jobTypeDescription      = "Name of the job, one of the plugin's public jobs."
	jobPayloadDescription   = "The job's payload, a JSON object (write it with `jsonencode`)."
	jobOperationDescription = "The job operation the service is asked for. Defaults to `\"" + defaultJobOperation + "\"`."
)

func configIDDescription(k framework.Kind) string {
	return fmt.Sprintf("Identifier of the %s whose plugin runs the job.", k.Noun)
}

// Schema implements resource.Resource.
func (r *jobResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	k := r.kind
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: fmt.Sprintf("Runs a public job of a %s's plugin when created, and again whenever "+
			"`triggers` change. PostHog since July 2025 runs no plugin jobs: this works with older self-hosted "+
			"instances only.", k.Noun),
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: projectIDDescription,
				Validators:          []validator.String{framework.ProjectIDValidator()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"config_id": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: configIDDescription(k),
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.RequiresReplace()},
			},
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of this run: `<project_id>/<config_id>/<ran_at>`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"job_type": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: jobTypeDescription,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers:       replace,
			},
			"payload": schema.StringAttribute{
				CustomType:          jsontypes.NormalizedType{},
				Optional:            true,
				MarkdownDescription: jobPayloadDescription,
				Validators:          []validator.String{payloadObject},
				PlanModifiers:       []planmodifier.String{sameJSONPlan{}, stringplanmodifier.RequiresReplace()},
			},
			"operation": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(defaultJobOperation),
				MarkdownDescription: jobOperationDescription,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers:       replace,
			},
			"triggers": schema.MapAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Any values whose change runs the job again, e.g. a date or a release.",
				PlanModifiers:       []planmodifier.Map{mapplanmodifier.RequiresReplace()},
			},
			"ran_at": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "When the service accepted the job (RFC 3339, UTC).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

// Schema implements action.Action.
func (x *runJobAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	k := x.kind
	resp.Schema = actionschema.Schema{
		MarkdownDescription: fmt.Sprintf("Runs a public job of a %s's plugin each time the action is invoked "+
			"(Terraform 1.14+). PostHog since July 2025 runs no plugin jobs: this works with older self-hosted "+
			"instances only.", k.Noun),
		Attributes: map[string]actionschema.Attribute{
			"project_id": actionschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: projectIDDescription,
				Validators:          []validator.String{framework.ProjectIDValidator()},
			},
			"config_id": actionschema.Int64Attribute{
				Required:            true,
				MarkdownDescription: configIDDescription(k),
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"job_type": actionschema.StringAttribute{
				Required:            true,
				MarkdownDescription: jobTypeDescription,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"payload": actionschema.StringAttribute{
				CustomType:          jsontypes.NormalizedType{},
				Optional:            true,
				MarkdownDescription: jobPayloadDescription,
				Validators:          []validator.String{payloadObject},
			},
			"operation": actionschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: jobOperationDescription,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

var payloadObject = framework.JSONObjectValidator("Payload is not a JSON object", "jsonencode({ days = 7 })")

// sameJSONPlan keeps the state's text for the same JSON written otherwise: no re-run.
type sameJSONPlan struct{}

func (sameJSONPlan) Description(context.Context) string {
	return "The same JSON written differently is no change."
}

func (m sameJSONPlan) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (sameJSONPlan) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if framework.IsSet(req.PlanValue) && framework.IsSet(req.StateValue) &&
		python.Equal(json.RawMessage(req.PlanValue.ValueString()), json.RawMessage(req.StateValue.ValueString())) {
		resp.PlanValue = req.StateValue
	}
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
		checkJob(ctx, meta, r.kind, plan.ProjectID.ValueString(), &plan.jobArgs, &resp.Diagnostics)
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
		checkJob(ctx, meta, x.kind, project, &args, &resp.Diagnostics)
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
