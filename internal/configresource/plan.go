package configresource

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// ModifyPlan implements resource.ResourceWithModifyPlan: the whole plan in
// one step, as plan modifiers would make the framework walk every attribute.
func (r *configResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	framework.PlanProjectID(ctx, r.Meta(), framework.ProjectWitness{Collection: r.kind.Collection, IDAttribute: idAttribute}, req, resp)
	cfg := configuredOf(req.Config.Raw)
	prior, _ := configOf(framework.RawAttributes(req.State.Raw))
	createonce.ConfirmInState(ctx, r.Meta(), prior.ID)
	r.planDroppedFilters(ctx, req, resp, cfg.Filters, prior.Filters)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.Plan.Raw.IsNull() {
		r.warnFinalDestroy(ctx, &prior, req.Private, &resp.Diagnostics)
		return
	}
	if req.State.Raw.IsNull() {
		// The service fills in what a create leaves out, but filters left out are none.
		if cfg.Filters.IsNull() {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, filtersPath, NewFiltersNull())...)
		}
		r.refuseCreateIfNotStored(ctx, resp)
		// plugin is required: the configured value is the planned one.
		if framework.IsSet(cfg.Plugin) && r.Meta() != nil && !resp.Diagnostics.HasError() {
			if _, err := r.checkAgainstPlugin(ctx, r.Meta(), cfg.Plugin.ValueInt64(), &cfg, &resp.Diagnostics); err != nil {
				noSchemaOnce(r.Meta(), cfg.Plugin.ValueInt64(), err, &resp.Diagnostics)
			}
		}
		return
	}
	if r.refuseUnread(ctx, &prior, req.Private, &resp.Diagnostics) {
		return
	}
	facts, known := readPrivate[pluginFacts](ctx, req.Private, pluginFactsKey)
	if resp.Plan.Raw.Equal(req.State.Raw) && !cfg.needsPlanning(&prior, facts, known) {
		return
	}

	var plan, state Model
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// New settings, a new plugin, or no facts: the plugin's schema tells
	// (when the key may read it), else the facts of the last answer.
	secrets, ok := facts.secretKeys()
	told := false
	if !ok || !plan.Plugin.Equal(state.Plugin) || !sameJSON(cfg.Settings.StringValue, state.Settings) {
		told, _ = r.checkAgainstPlugin(ctx, r.Meta(), plan.Plugin.ValueInt64(), &cfg, &resp.Diagnostics)
	}
	if !told && ok && plan.Plugin.Equal(state.Plugin) {
		resp.Diagnostics.Append(checkSettingKeys(plan.Plugin.ValueInt64(), secrets, cfg.Settings, cfg.secret, "")...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	planUpdate(&plan.RecordModel, &state.RecordModel, &cfg, facts, known)
	if !plan.Plugin.Equal(state.Plugin) {
		resp.RequiresReplace = append(resp.RequiresReplace, pluginPath)
	}
	if r.refuseReplacement(ctx, &plan.RecordModel, &state.RecordModel, resp); resp.Diagnostics.HasError() {
		return
	}
	resends := !cfg.secret.IsNull() && !plan.SecretSettingsVersion.Equal(state.SecretSettingsVersion)
	if sameArguments(&plan.RecordModel, &state.RecordModel) && !resends {
		// Update sends nothing: the state's computed values stay known.
		state.Timeouts, state.SecretSettingsVersion = plan.Timeouts, plan.SecretSettingsVersion
		state.ProjectID, state.Filters = plan.ProjectID, plan.Filters
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &state)...)
		return
	}
	plan.UpdatedAt = types.StringUnknown() // the service sets it on every write
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planUpdate plans an update to what cfg configures, from the framework's
// proposal: what the service stores the same way keeps the state's text.
func planUpdate(plan, state *RecordModel, cfg *configured, facts pluginFacts, known bool) {
	plan.ID, plan.CreatedAt = state.ID, state.CreatedAt
	if plan.ProjectID.IsUnknown() && !cfg.ProjectID.IsUnknown() {
		plan.ProjectID = state.ProjectID
	}
	if cfg.Order.IsNull() {
		plan.Order = state.Order
	}
	plan.Name = planText(cfg.Name, plan.Name, state.Name, facts.NameFromPlugin, facts.BlankName, known)
	plan.Description = planText(cfg.Description, plan.Description, state.Description,
		facts.DescriptionFromPlugin, facts.BlankDescription, known)
	plan.Filters = planFilters(cfg.Filters.StringValue, plan.Filters, state.Filters)
	plan.Settings = planSettings(cfg.Settings.StringValue, plan.Settings, state.Settings)
}

// needsPlanning reports whether a plan equal to the state still needs
// deciding: secrets to check, or values left out that must change.
func (c *configured) needsPlanning(state *RecordModel, facts pluginFacts, known bool) bool {
	return !c.secret.IsNull() ||
		c.Name.IsNull() && known && (!facts.NameFromPlugin || facts.BlankName) && !state.Name.IsNull() ||
		c.Description.IsNull() && known && (!facts.DescriptionFromPlugin || facts.BlankDescription) && !state.Description.IsNull() ||
		c.Filters.IsNull() && !state.Filters.FiltersNothing()
}

// refuseUnread refuses to plan against a state of only project and id (not
// refreshed since a move or import), which would replace the config.
func (r *configResource) refuseUnread(ctx context.Context, state *RecordModel, private privateState, diags *diag.Diagnostics) bool {
	if !state.Plugin.IsNull() || state.ID.IsNull() {
		return false
	}
	id := state.ID.ValueInt64()
	how := "was taken over from another resource"
	if o, ok := readPrivate[moveOrigin](ctx, private, movedKey); ok {
		how = "was moved in from " + o.From
	}
	diags.AddError(fmt.Sprintf("The %s %d has not been read yet", r.kind.Noun, id), fmt.Sprintf(
		"The %s %d %s, and its state holds only its project and id until a refresh reads the config from "+
			"the service. Planning against that state would replace the config. Run the plan without "+
			"-refresh=false.", r.kind.Noun, id, how))
	return true
}
