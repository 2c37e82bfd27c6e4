package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// EventResource is the base of a resource that stands for an event on the
// service, such as a job run or a migration: every argument forces
// replacement (project_id when it names another project, not when it
// names the same one in the other form), so the service is called on
// create only. Read has nothing
// to refresh, Update only keeps the plan, and PlanCreate checks a planned
// create. Embed it by value and set the type name with NewEventResource.
type EventResource struct {
	ResourceBase
}

// NewEventResource returns the base of an event resource named
// <provider type name><typeSuffix>.
func NewEventResource(typeSuffix string) EventResource {
	return EventResource{ResourceBase: NewResourceBase(typeSuffix)}
}

// Read calls nothing: an event is past, there is nothing to refresh.
func (EventResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

// Update only happens when nothing that matters changed (every argument
// forces replacement; e.g. project_id written in the other form): the plan
// becomes the state.
func (EventResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

// PlanCreate, called from ModifyPlan: project_id is planned by
// PlanProjectID (the event's config, w, tells "@current" from the
// project's id), and a planned create is checked by check, with the
// provider data and the planned project, once the provider is configured
// and the project known. Terraform plans a replacement a second time as a
// create (no prior state), so checking creates only looks once per run.
func (b *EventResource) PlanCreate(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse,
	w ProjectWitness, check func(meta *ProviderData, project string) diag.Diagnostics,
) {
	meta := b.Meta()
	PlanProjectID(ctx, meta, w, req, resp)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || meta == nil {
		return
	}
	var project types.String
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, ProjectIDPath, &project)...)
	if resp.Diagnostics.HasError() || !IsSet(project) {
		return
	}
	resp.Diagnostics.Append(check(meta, project.ValueString())...)
}
