package job

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

// Target is the config an event acts on, an argument of every event construct.
type Target struct {
	ProjectID types.String `tfsdk:"project_id"`
	ConfigID  types.Int64  `tfsdk:"config_id"`
}

// Event is something done to a config (a job run, a migration) by its
// resource on create and its action on every invocation. M is the resource's
// model, A the arguments it shares with the action, R what Call returns.
type Event[M, A, R any] struct {
	Resource, Action string // type suffixes, e.g. "job" and "run_job"
	ResourceSchema   func(kind.Kind) schema.Schema
	ActionSchema     func(kind.Kind) actionschema.Schema
	Args             func(*M) *A
	Target           func(*A) *Target
	Check            func(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, a *A) diag.Diagnostics
	Call             func(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, a *A, diags *diag.Diagnostics) (R, bool)
	Record           func(m *M, project string, r R)                      // the resource's computed attributes
	Forget           func(k kind.Kind, state *M, diags *diag.Diagnostics) // what a destroy tells, if anything
	Starting         func(k kind.Kind, project string, a *A) string       // the action's progress
	Done             func(k kind.Kind, a *A, r R) string
}

const projectIDDescription = "Project of the config: its id or `@current`. Defaults to the provider's `project_id`."

// WithTarget adds an event resource's project_id and config_id to attrs.
func WithTarget(configIDDescription string, attrs map[string]schema.Attribute) map[string]schema.Attribute {
	attrs["project_id"] = schema.StringAttribute{
		Optional:            true,
		Computed:            true,
		MarkdownDescription: projectIDDescription,
		Validators:          []validator.String{framework.ProjectIDValidator()},
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	attrs["config_id"] = schema.Int64Attribute{
		Required:            true,
		MarkdownDescription: configIDDescription,
		Validators:          []validator.Int64{int64validator.AtLeast(1)},
		PlanModifiers:       []planmodifier.Int64{int64planmodifier.RequiresReplace()},
	}
	return attrs
}

// WithActionTarget adds an event action's project_id and config_id to attrs.
func WithActionTarget(configIDDescription string, attrs map[string]actionschema.Attribute) map[string]actionschema.Attribute {
	attrs["project_id"] = actionschema.StringAttribute{
		Optional:            true,
		MarkdownDescription: projectIDDescription,
		Validators:          []validator.String{framework.ProjectIDValidator()},
	}
	attrs["config_id"] = actionschema.Int64Attribute{
		Required:            true,
		MarkdownDescription: configIDDescription,
		Validators:          []validator.Int64{int64validator.AtLeast(1)},
	}
	return attrs
}

func (e *Event[M, A, R]) call(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, a *A, diags *diag.Diagnostics) (R, bool) {
	ctx, cancel := context.WithTimeout(ctx, framework.DefaultWriteTimeout)
	defer cancel()
	ctx = tflog.SetField(ctx, "config_id", e.Target(a).ConfigID.ValueInt64())
	return e.Call(ctx, meta, k, project, a, diags)
}

// NewResource returns the constructor of the event's resource of kind k.
func (e *Event[M, A, R]) NewResource(k kind.Kind) func() resource.Resource {
	return func() resource.Resource {
		return &eventResource[M, A, R]{ResourceBase: framework.NewResourceBase(k.TypeSuffix(e.Resource)), kind: k, event: e}
	}
}

// NewAction returns the constructor of the event's action of kind k.
func (e *Event[M, A, R]) NewAction(k kind.Kind) func() action.Action {
	return func() action.Action {
		return &eventAction[M, A, R]{ActionBase: framework.NewActionBase(k.TypeSuffix(e.Action)), kind: k, event: e}
	}
}

// eventResource is an event's resource: every argument forces replacement,
// so any change does it again; refresh calls nothing.
type eventResource[M, A, R any] struct {
	framework.ResourceBase
	kind  kind.Kind
	event *Event[M, A, R]
}

var (
	_ resource.ResourceWithModifyPlan = (*eventResource[model, jobArgs, struct{}])(nil)
	_ action.ActionWithModifyPlan     = (*eventAction[model, jobArgs, struct{}])(nil)
)

// Schema implements resource.Resource.
func (r *eventResource[M, A, R]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.event.ResourceSchema(r.kind)
}

// ModifyPlan implements resource.ResourceWithModifyPlan: project_id
// defaults to the provider's, and a planned create is checked once the
// provider and project are known (a replacement is planned as a create).
func (r *eventResource[M, A, R]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	meta := r.Meta()
	framework.PlanProjectID(ctx, meta, framework.ProjectWitness{Collection: r.kind.Collection, IDAttribute: "config_id"}, req, resp)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || meta == nil {
		return
	}
	var plan M
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	args := r.event.Args(&plan)
	if project := r.event.Target(args).ProjectID; !resp.Diagnostics.HasError() && framework.IsSet(project) {
		resp.Diagnostics.Append(r.event.Check(ctx, meta, r.kind, project.ValueString(), args)...)
	}
}

// Create makes the call, once.
func (r *eventResource[M, A, R]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	args := r.event.Args(&plan)
	meta, project := r.MustProject(r.event.Target(args).ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	result, ok := r.event.call(ctx, meta, r.kind, project, args, &resp.Diagnostics)
	if !ok {
		return
	}
	r.event.Target(args).ProjectID = types.StringValue(project)
	r.event.Record(&plan, project, result)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read calls nothing: an event is past, there is nothing to refresh.
func (*eventResource[M, A, R]) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

// Update happens only when nothing that matters changed (project_id written
// in the other form): the plan becomes the state.
func (*eventResource[M, A, R]) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

// Delete calls nothing: what was done cannot be undone.
func (r *eventResource[M, A, R]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if r.event.Forget == nil {
		return
	}
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !resp.Diagnostics.HasError() {
		r.event.Forget(r.kind, &state, &resp.Diagnostics)
	}
}

// eventAction is an event's action: the resource's call, made whenever the
// action is invoked, with nothing kept in state.
type eventAction[M, A, R any] struct {
	framework.ActionBase
	kind  kind.Kind
	event *Event[M, A, R]
}

// Schema implements action.Action.
func (x *eventAction[M, A, R]) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = x.event.ActionSchema(x.kind)
}

// ModifyPlan implements action.ActionWithModifyPlan: the event is checked
// once the provider is configured and the project known.
func (x *eventAction[M, A, R]) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	meta := x.Meta()
	if meta == nil {
		return
	}
	var args A
	resp.Diagnostics.Append(req.Config.Get(ctx, &args)...)
	configured := x.event.Target(&args).ProjectID
	if resp.Diagnostics.HasError() || configured.IsUnknown() {
		return
	}
	if project := framework.ProjectOrDefault(configured, meta, &resp.Diagnostics); !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(x.event.Check(ctx, meta, x.kind, project, &args)...)
	}
}

// Invoke makes the call, saying what it does as it goes when Terraform listens.
func (x *eventAction[M, A, R]) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var args A
	resp.Diagnostics.Append(req.Config.Get(ctx, &args)...)
	if resp.Diagnostics.HasError() {
		return
	}
	meta, project := x.MustProject(x.event.Target(&args).ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	progress := func(msg string) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: msg})
		}
	}
	progress(x.event.Starting(x.kind, project, &args))
	if result, ok := x.event.call(ctx, meta, x.kind, project, &args, &resp.Diagnostics); ok {
		progress(x.event.Done(x.kind, &args, result))
	}
}
