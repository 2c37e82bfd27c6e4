package job

import (
	"context"
	"encoding/json"
	"fmt"

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
