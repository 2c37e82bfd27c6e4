package configresource

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// ModifyPlan implements resource.ResourceWithModifyPlan: the whole plan in
// one step, as plan modifiers would make the framework walk every attribute.
func (r *configResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	framework.PlanProjectID(ctx, r.Meta(), framework.ProjectWitness{Collection: r.kind.Collection, IDAttribute: idAttribute}, req, resp)
	cfg := configuredOf(req.Config.Raw)
	prior := configuredOf(req.State.Raw).RecordModel
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

// refuseCreateIfNotStored refuses at plan time a create the service would
// not store (Client.LearnStoresConfigs: no write is sent).
func (r *configResource) refuseCreateIfNotStored(ctx context.Context, resp *resource.ModifyPlanResponse) {
	meta := r.Meta()
	if meta == nil || resp.Diagnostics.HasError() {
		return
	}
	if err := createonce.RefuseUnsavedBefore(meta); err != nil {
		r.addCreateError(&resp.Diagnostics, 0, err)
		return
	}
	var project types.String
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, framework.ProjectIDPath, &project)...)
	if !framework.IsSet(project) {
		return // known at apply: the create itself will tell
	}
	stores, known := meta.Client.LearnStoresConfigs(ctx, project.ValueString(), r.kind.Collection)
	if !known || stores {
		return // the apply finds out without making anything (Create)
	}
	resp.Diagnostics.AddError(fmt.Sprintf("The service no longer creates %ss", r.kind.Noun), fmt.Sprintf(
		"The service no longer stores new plugin configs (%s): a create would at best make a hog function instead, "+
			"so nothing was sent. Remove this resource from the configuration. To keep working with a config that "+
			"exists, import it (an import block with its id); to build a new pipeline, use the official PostHog "+
			"provider's posthog_hog_function. See %s.", client.Generation2Since, client.MovingGuide))
}

// warnFinalDestroy warns in the plan of a destroy, on a service that makes
// no configs any more, that no apply can make the config again. The plugin
// facts tell, with no request (a destroy is one PATCH), or StoresConfigs.
func (r *configResource) warnFinalDestroy(ctx context.Context, prior *RecordModel, private privateState, diags *diag.Diagnostics) {
	meta := r.Meta()
	if meta == nil {
		return
	}
	project, id := prior.ProjectID, prior.ID.ValueInt64()
	facts, _ := readPrivate[pluginFacts](ctx, private, pluginFactsKey)
	if stores, known := meta.Client.StoresConfigs(); !framework.IsSet(project) || !facts.NoCreates && (!known || stores) {
		return
	}
	// One summary for every config, so that Terraform shows it once with a count.
	diags.AddWarning(fmt.Sprintf("A destroyed %s cannot be made again", r.kind.Noun), fmt.Sprintf(
		"This plan deletes %s %d of project %s. The service no longer makes plugin configs (%s), so no later "+
			"apply can make it again: bringing the resource back would plan a create, which the service refuses. %s\n\n"+
			"To stop the config and keep it, set enabled = false instead. To stop managing it with Terraform and leave "+
			"it on the service, replace its resource block with a removed block whose lifecycle sets destroy = false, "+
			"and run terraform apply (terraform destroy ignores removed blocks).",
		r.kind.Noun, id, project.ValueString(), client.Generation2Since, restoreNote(project.ValueString(), r.kind.Collection, id)))
}

// refuseReplacement refuses at plan time a replacement on a service that
// makes no configs (Client.LearnStoresConfigs): its delete could not be
// undone and its create would be refused. Such a plan mostly means a
// configuration that does not match the config, as after an import.
func (r *configResource) refuseReplacement(ctx context.Context, plan, state *RecordModel, resp *resource.ModifyPlanResponse) {
	meta := r.Meta()
	if meta == nil || len(resp.RequiresReplace) == 0 {
		return
	}
	project, id := state.ProjectID.ValueString(), state.ID.ValueInt64()
	stores, known := meta.Client.LearnStoresConfigs(ctx, project, r.kind.Collection)
	if !known && meta.Client.DropsFilters() {
		// Versions C to E answer alike; E stores no config.
		resp.Diagnostics.AddWarning(fmt.Sprintf("Replacing config %d cannot be undone on every service", id), fmt.Sprintf(
			"Terraform will delete config %d of project %s and create another. The service answers as PostHog's have "+
				"since August 2024, and nothing tells before a create whether it is one of July 2025 or later, which stores "+
				"no new config (%s): there the create fails after the delete. %s", id, project, client.Generation2Since,
			restoreNote(project, r.kind.Collection, id)))
	}
	if !known || stores {
		return
	}
	why := fmt.Sprintf("Terraform would have to delete it and create another, and the service no longer makes "+
		"plugin configs (%s): the delete could not be undone, and the create would be refused. Nothing was sent.",
		client.Generation2Since)
	for _, p := range resp.RequiresReplace {
		switch {
		case p.Equal(pluginPath) && framework.IsSet(plan.Plugin):
			want := plan.Plugin.ValueInt64()
			resp.Diagnostics.AddAttributeError(pluginPath,
				fmt.Sprintf("Cannot replace config %d: its plugin is %d, not %d", id, state.Plugin.ValueInt64(), want), fmt.Sprintf(
					"Config %d of project %s belongs to plugin %d, and this configuration sets plugin = %d. A config "+
						"cannot change plugin: %s\n\nSet plugin = %d to manage this config. To run plugin %d, build a hog "+
						"function with the official PostHog provider (posthog_hog_function): see %s.",
					id, project, state.Plugin.ValueInt64(), want, why, state.Plugin.ValueInt64(), want,
					client.MovingGuide))
		case p.Equal(framework.ProjectIDPath) && framework.IsSet(plan.ProjectID):
			resp.Diagnostics.AddAttributeError(framework.ProjectIDPath,
				fmt.Sprintf("Cannot replace config %d: it is in project %s, not %s", id, project, plan.ProjectID.ValueString()), fmt.Sprintf(
					"Config %d belongs to project %s, and this configuration sets project_id = %q. A config cannot "+
						"move to another project: %s\n\nSet project_id = %q to manage this config, or leave it out "+
						"when the provider's project_id names that project.",
					id, project, plan.ProjectID.ValueString(), why, project))
		}
	}
}
