// Package job is the resource pipeline_KIND_job, which runs a public job of
// a config's plugin on create (again whenever triggers change), and the
// action pipeline_KIND_run_job, which runs it on every invocation.
package job

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
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

// defaultJobOperation is the operation the service assumes.
const defaultJobOperation = "start"

var (
	jobConfigIDPath = path.Root("config_id")
	jobTypePath     = path.Root("job_type")
	jobPayloadPath  = path.Root("payload")
)

// jobArgs is a job as configured, in the resource and the action alike.
type jobArgs struct {
	ProjectID types.String         `tfsdk:"project_id"`
	ConfigID  types.Int64          `tfsdk:"config_id"`
	JobType   types.String         `tfsdk:"job_type"`
	Payload   jsontypes.Normalized `tfsdk:"payload"`
	Operation types.String         `tfsdk:"operation"`
}

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
	meta, project := r.MustProject(plan.ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !runJob(ctx, meta, r.kind, project, &plan.jobArgs, func(string) {}, &resp.Diagnostics) {
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
	meta, project := x.MustProject(args.ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	runJob(ctx, meta, x.kind, project, &args, func(msg string) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: msg})
		}
	}, &resp.Diagnostics)
}

// runJob asks the service once, under the write time limit, to run the job,
// telling progress before and after; it reports whether the service
// accepted the job.
func runJob(ctx context.Context, meta *framework.ProviderData, k framework.Kind, project string, a *jobArgs,
	progress func(string), diags *diag.Diagnostics,
) bool {
	ctx, cancel := context.WithTimeout(ctx, framework.DefaultWriteTimeout)
	defer cancel()
	id := a.ConfigID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)
	job := client.Job{Type: a.JobType.ValueString(), Operation: cmp.Or(a.Operation.ValueString(), defaultJobOperation)}
	if framework.IsSet(a.Payload) {
		job.Payload = json.RawMessage(a.Payload.ValueString())
	}
	progress(fmt.Sprintf("Starting job %q (operation %q) of %s %d in project %s", job.Type, job.Operation, k.Noun, id, project))
	err := meta.Client.RunJob(ctx, project, k.Collection, id, job)
	if err == nil {
		tflog.Info(ctx, "job accepted", map[string]any{"job_type": job.Type})
		progress(fmt.Sprintf("The service accepted job %q of %s %d", job.Type, k.Noun, id))
		return true
	}
	summary := fmt.Sprintf("Could not run job %q of %s %d", a.JobType.ValueString(), k.Noun, id)
	switch {
	case client.IsMissingAction(err):
		diags.AddError(summary, fmt.Sprintf("%s.\n\n%s", err, noJobs("nothing ran")))
	case client.IsNotFound(err):
		diags.AddAttributeError(jobConfigIDPath, summary, fmt.Sprintf("Project %s has no %s with id %d.\n\n%s",
			project, k.Noun, id, framework.DescribeError(err)))
	case client.StatusOf(err) == http.StatusBadRequest:
		// The service names no attribute; its messages say which one.
		diags.AddAttributeError(jobErrorPath(err), summary, framework.DescribeError(err))
	default:
		framework.AddCustomActionError(diags, summary, client.ActionJob, err, nil)
	}
	return false
}

// jobErrorPath maps the service's job validation messages to the attribute
// they are about: those about a field to payload, the others to job_type.
func jobErrorPath(err error) path.Path {
	msg := strings.ToLower(err.Error())
	if strings.Contains(msg, "field") || strings.Contains(msg, "payload") {
		return jobPayloadPath
	}
	return jobTypePath
}

type publicJob struct {
	Payload map[string]struct {
		Required bool `json:"required"`
	} `json:"payload"`
}

// checkJob judges a job against the public jobs of the config's plugin (one
// read, readForPlan); values not known yet are left to the service.
func checkJob(ctx context.Context, meta *framework.ProviderData, k framework.Kind, project string, a *jobArgs, diags *diag.Diagnostics) {
	if !framework.IsSet(a.ConfigID) || !framework.IsSet(a.JobType) {
		return
	}
	id := a.ConfigID.ValueInt64()
	rec := readForPlan(ctx, meta, k, project, id, diags)
	if rec == nil {
		return
	}
	if has, known := meta.Client.HasJobAction(ctx, project, k.Collection, id); known && !has {
		diags.AddAttributeError(jobConfigIDPath, "The service no longer runs plugin jobs", fmt.Sprintf(
			"The service answers 404 for the job action of %s %d, which exists. %s", k.Noun, id, noJobs("nothing was sent")))
		return
	}
	if framework.RefuseKeyAtPlan(ctx, meta, project, k.Collection, id, client.ActionJob, jobConfigIDPath, diags) {
		return
	}
	var info struct {
		PublicJobs *map[string]publicJob `json:"public_jobs"`
	}
	if json.Unmarshal(rec.PluginInfo, &info) != nil || info.PublicJobs == nil {
		return // plugin_info does not say: the service alone can judge the job
	}
	jobs := *info.PublicJobs
	jobType := a.JobType.ValueString()
	job, ok := jobs[jobType]
	switch {
	case len(jobs) == 0:
		diags.AddAttributeError(jobTypePath, "Plugin has no public jobs", fmt.Sprintf(
			"Plugin %d of %s %d has no public jobs, so job %q cannot run.", rec.Plugin, k.Noun, id, jobType))
		return
	case !ok:
		diags.AddAttributeError(jobTypePath, "Unknown job type", fmt.Sprintf(
			"Plugin %d of %s %d has no public job %q. Its jobs: %s.", rec.Plugin, k.Noun, id, jobType, quoteAll(slices.Sorted(maps.Keys(jobs))...)))
		return
	}

	if a.Payload.IsUnknown() {
		return // judged by the service at apply
	}
	payload, isObject := python.Object(a.Payload.ValueString())
	if framework.IsSet(a.Payload) && !isObject {
		return // the attribute's validator reports it
	}
	fields := slices.Sorted(maps.Keys(job.Payload))
	var missing, unknown []string
	for _, f := range fields {
		if _, sent := payload[f]; job.Payload[f].Required && !sent {
			missing = append(missing, f)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(payload)) {
		if _, ok := job.Payload[f]; !ok {
			unknown = append(unknown, f)
		}
	}
	if len(missing) > 0 {
		diags.AddAttributeError(jobPayloadPath, "Missing required job field", fmt.Sprintf(
			"Job %q needs the payload field(s) %s. Its fields: %s.", jobType, quoteAll(missing...), describeFields(job, fields)))
	}
	if len(unknown) > 0 {
		diags.AddAttributeError(jobPayloadPath, "Unknown field for job", fmt.Sprintf(
			"Job %q has no payload field(s) %s. Its fields: %s.", jobType, quoteAll(unknown...), describeFields(job, fields)))
	}
}

// noJobs says that the service has no job action any more, what was done
// (done), and what to do.
func noJobs(done string) string {
	return fmt.Sprintf("The service no longer runs plugin jobs: it has no job action (%s; its versions since "+
		"September 2024 answer 404 for it), so %s. Remove this job (resource or action) from the configuration; %s "+
		"says what replaces plugin configs.",
		client.JobsGoneSince, done, client.MovingGuide)
}

// describeFields lists a job's payload fields, marking the required ones.
func describeFields(job publicJob, fields []string) string {
	if len(fields) == 0 {
		return "none (leave payload out)"
	}
	out := make([]string, len(fields))
	for i, f := range fields {
		if out[i] = quoteAll(f); job.Payload[f].Required {
			out[i] += " (required)"
		}
	}
	return strings.Join(out, ", ")
}

func quoteAll(names ...string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return strings.Join(out, ", ")
}

// readForPlan reads config id through the read cache (many checks, few
// pages). A config the project lacks, or a service without the API, is an
// error; another failure a warning, the job left to the service at apply.
func readForPlan(ctx context.Context, meta *framework.ProviderData, k framework.Kind, project string, id int64, diags *diag.Diagnostics) *client.Record {
	rec, err := meta.ReadCache().Read(ctx, project, k.Collection, id)
	switch {
	case client.IsNotFound(err):
		diags.AddAttributeError(jobConfigIDPath, fmt.Sprintf("Unknown %s %d", k.Noun, id), fmt.Sprintf(
			"Project %s has no %s with id %d, so no job can run on it.\n\n%s", project, k.Noun, id, framework.DescribeError(err)))
	case client.IsServiceGone(err):
		framework.AddAPIError(diags, fmt.Sprintf("Could not read %s %d", k.Noun, id), err, nil)
	case err != nil:
		diags.AddAttributeWarning(jobConfigIDPath, "Could not check the config at plan time", fmt.Sprintf(
			"Reading %s %d failed, so the job type and payload are left to the service to judge at apply.\n\n%s",
			k.Noun, id, framework.DescribeError(err)))
	default:
		return rec
	}
	return nil
}
