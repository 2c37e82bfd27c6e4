package migration

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

var (
	_ resource.ResourceWithConfigure  = (*migrationResource)(nil)
	_ resource.ResourceWithModifyPlan = (*migrationResource)(nil)
)

// migrationResource is the resource pipeline_<kind>_migration: a config
// turned into a hog function, once, on create. Every argument forces
// replacement (a new migration), and nothing else calls the service: the
// refresh of an event resource calls nothing, since a migration is a past
// event. The config it disabled belongs to the config resource (or to
// nobody, once taken out of Terraform), the hog function to the official
// PostHog provider; this resource only remembers what the service answered.
type migrationResource struct {
	framework.EventResource
	kind kind.Kind
}

// NewResource returns the constructor of the migration resource of kind k.
func NewResource(k kind.Kind) func() resource.Resource {
	return func() resource.Resource {
		return &migrationResource{EventResource: framework.NewEventResource(k.TypeSuffix("migration")), kind: k}
	}
}

// Schema implements resource.Resource.
func (r *migrationResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = resourceSchema(r.kind)
}

// ModifyPlan implements resource.ResourceWithModifyPlan: project_id
// defaults to the provider's, and a planned migration checks its config.
func (r *migrationResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	w := framework.ProjectWitness{Collection: r.kind.Collection, IDAttribute: "config_id"}
	r.PlanCreate(ctx, req, resp, w, func(meta *framework.ProviderData, project string) diag.Diagnostics {
		var plan model
		if diags := resp.Plan.Get(ctx, &plan); diags.HasError() {
			return diags
		}
		return check(ctx, meta, r.kind, project, &plan.args)
	})
}

// Create migrates the config: one migrate request, never repeated.
func (r *migrationResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
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
	id := plan.ConfigID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)

	hf, ok := migrate(ctx, meta, r.kind, project, &plan.args, &resp.Diagnostics)
	if !ok {
		return
	}
	tflog.Info(ctx, "migrated to a hog function", map[string]any{"hog_function_id": hf.ID})
	plan.ProjectID = types.StringValue(project)
	plan.ID = types.StringValue(fmt.Sprintf("%s/%d", project, id))
	plan.HogFunctionID = types.StringNull()
	if hf.ID != "" {
		plan.HogFunctionID = types.StringValue(hf.ID)
	}
	plan.HogFunction = jsontypes.NewNormalizedValue(string(hf.JSON))
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete calls nothing: a migration cannot be undone. It says so.
func (r *migrationResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state model
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.AddWarning("A migration cannot be undone", fmt.Sprintf(
		"The migration of %s %d was removed from the state only. Hog function %s and the disabled config stay on "+
			"the service: manage the hog function with the official PostHog provider, and delete the config "+
			"there if you no longer need it.",
		r.kind.Noun, state.ConfigID.ValueInt64(), state.HogFunctionID.ValueString()))
}
