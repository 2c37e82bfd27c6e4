package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// EventResource is the base of a resource that stands for an event on the
// service (a job run, a migration): every argument forces replacement, so
// the service is called on create only.
type EventResource struct {
	ResourceBase
}

// NewEventResource returns the base of the event resource <provider><typeSuffix>.
func NewEventResource(typeSuffix string) EventResource {
	return EventResource{ResourceBase: NewResourceBase(typeSuffix)}
}

// Read calls nothing: an event is past, there is nothing to refresh.
func (EventResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

// Update happens only when nothing that matters changed (project_id written
// in the other form): the plan becomes the state.
func (EventResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

// PlanCreate, from ModifyPlan, plans project_id (PlanProjectID) and runs
// check on a planned create once the provider and project are known.
// Terraform plans a replacement again as a create, so that looks once.
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
