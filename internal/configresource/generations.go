package configresource

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// addCreateError reports a failed create, with what to use instead when the
// service made a hog function, or nothing.
func (r *configResource) addCreateError(diags *diag.Diagnostics, plugin int64, err error) {
	var unsaved *client.UnsavedError
	var lost *createonce.LostAnswerError
	var before *createonce.UnsavedBeforeError
	switch {
	case errors.As(err, &before):
		diags.AddError(fmt.Sprintf("The service no longer creates %ss", r.kind.Noun), before.Explain())
	case errors.As(err, &unsaved):
		diags.AddError(fmt.Sprintf("The service made a hog function instead of a %s", r.kind.Noun), fmt.Sprintf(
			"%s %s answered %d %s with a config that has no id: the service no longer stores plugin configs "+
				"(%s) and turned this request for plugin %s into a "+
				"hog function instead.\n\n"+
				"The request was not sent again, and nothing was saved in the state. Applying this configuration "+
				"again would make another hog function: remove this resource from the configuration, and manage the "+
				"hog function with the official PostHog provider (resource posthog_hog_function; the service lists "+
				"it among the project's hog functions, with its id to import). Configs that already exist can "+
				"still be managed here: see %s.",
			unsaved.Method, unsaved.Path, unsaved.Status, http.StatusText(unsaved.Status), client.Generation2Since, describePlugin(plugin, unsaved.Record),
			client.MovingGuide))
	case client.IsCreationDisabled(err):
		diags.AddError(fmt.Sprintf("The service no longer creates %ss", r.kind.Noun), fmt.Sprintf(
			"%s\n\nThe service no longer stores plugin configs (%s), and it cannot turn plugin %d into a hog "+
				"function, so nothing was made on the service and nothing was saved in the state. Remove this "+
				"resource from the configuration and build the pipeline as a hog function with the official "+
				"PostHog provider (resource posthog_hog_function). Configs that already exist can still be "+
				"managed here: see %s.",
			framework.DescribeError(err), client.Generation2Since, plugin, client.MovingGuide))
	case errors.As(err, &lost):
		diags.AddError(fmt.Sprintf("Could not create %s", r.kind.Noun), framework.DescribeError(lost.Err)+"\n\n"+lost.Note)
	default:
		r.addError(diags, "create", 0, err)
	}
}

// refuseCreateIfNotStored refuses at plan time a create the service would
// not store (Client.LearnStoresConfigs: no write is sent).
func (r *configResource) refuseCreateIfNotStored(ctx context.Context, resp *resource.ModifyPlanResponse) {
	meta := r.Meta()
	if meta == nil || resp.Diagnostics.HasError() {
		return
	}
	var before *createonce.UnsavedBeforeError
	if errors.As(createonce.RefuseUnsavedBefore(meta), &before) {
		resp.Diagnostics.AddError(fmt.Sprintf("The service no longer creates %ss", r.kind.Noun), before.Explain())
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

// describePlugin names a plugin by id, and by its name in rec, if any.
func describePlugin(id int64, rec *client.Record) string {
	if rec != nil {
		if name := PluginOf(rec.PluginInfo).Name.Text; name != nil && *name != "" {
			return fmt.Sprintf("%d (%q)", id, *name)
		}
	}
	return fmt.Sprint(id)
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

// warnDeletedForGood says, after a delete that the service's answer shows
// it makes no configs any more, that Terraform cannot make the config again.
func (r *configResource) warnDeletedForGood(meta *framework.ProviderData, project string, id int64, diags *diag.Diagnostics) {
	if stores, known := meta.Client.StoresConfigs(); !known || stores {
		return
	}
	diags.AddWarning(fmt.Sprintf("Deleted %s cannot be made again", r.kind.Noun), fmt.Sprintf(
		"Terraform deleted %s %d of project %s. The service no longer makes plugin configs (%s), so Terraform "+
			"cannot make it again. %s", r.kind.Noun, id, project, client.Generation2Since,
		restoreNote(project, r.kind.Collection, id)))
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
