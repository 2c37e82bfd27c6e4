package migration

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/job"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

var configIDPath = path.Root("config_id")

// check looks at the config (one read, record.ForPlan): one that does not
// exist or is deleted, or a service without the API, is refused.
func check(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, a *job.Target) diag.Diagnostics {
	if !framework.IsSet(a.ConfigID) {
		return nil
	}
	id := a.ConfigID.ValueInt64()
	rec, diags := record.ForPlan(ctx, meta, k, project, id, record.PlanLookup{
		Attr:     configIDPath,
		Unknown:  "so there is nothing to migrate",
		Deferred: "so the service judges the migration at apply",
	})
	if rec != nil && rec.Deleted {
		diags.AddAttributeError(configIDPath, fmt.Sprintf("Cannot migrate deleted %s %d", k.Noun, id), fmt.Sprintf(
			"The %s %d of project %s is deleted, so there is nothing to migrate.", k.Noun, id, project))
	}
	if rec != nil && !diags.HasError() {
		framework.RefuseKeyAtPlan(ctx, meta, project, k.Collection, id, framework.ActionMigrate, configIDPath, &diags)
	}
	return diags
}

// migrate asks the service once to turn config a.ConfigID into a hog
// function; errors are added to diags, each with what to do.
func migrate(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, a *job.Target, diags *diag.Diagnostics) (client.HogFunction, bool) {
	id := a.ConfigID.ValueInt64()
	// The service disables the config: no page read before serves it.
	defer meta.ReadCache().Invalidate(id)
	hf, err := meta.Client.Migrate(ctx, project, k.Collection, id)
	if err != nil {
		addMigrateError(diags, k, project, id, err)
		return client.HogFunction{}, false
	}
	tflog.Info(ctx, "migrated to a hog function", map[string]any{"hog_function_id": hf.ID})
	if hf.ID == "" {
		diags.AddWarning("The service's answer names no hog function", fmt.Sprintf(
			"%s %d was migrated, but the answer has no hog function id: find the hog function among the project's "+
				"hog functions. The answer is in hog_function.", k.Noun, id))
	}
	return *hf, true
}

// addMigrateError reports a failed migration of config id.
func addMigrateError(diags *diag.Diagnostics, k kind.Kind, project string, id int64, err error) {
	summary := fmt.Sprintf("Could not migrate %s %d", k.Noun, id)
	switch {
	case client.IsMissingAction(err):
		diags.AddError(summary, fmt.Sprintf("%s.\n\nOnly services since July 2025 (PostHog PR #35545) turn plugin "+
			"configs into hog functions; this one still keeps plugin configs, so nothing was changed. Keep managing "+
			"the config, or build the pipeline as a hog function with the official PostHog provider yourself.", err))
	case client.IsNoMigration(err):
		diags.AddAttributeError(configIDPath, summary, fmt.Sprintf("%s\n\nThe service cannot turn the plugin of %s %d "+
			"into a hog function, so nothing was changed. Build the pipeline as a hog function with the official "+
			"PostHog provider, then take the config out of Terraform (see %s).",
			framework.DescribeError(err), k.Noun, id, framework.MovingGuide))
	case client.IsNotFound(err):
		diags.AddAttributeError(configIDPath, summary, fmt.Sprintf("Project %s has no %s with id %d.\n\n%s",
			project, k.Noun, id, framework.DescribeError(err)))
	case client.MayHaveApplied(err):
		diags.AddError(summary, fmt.Sprintf("%s\n\nThe request may have reached the service, so it was not sent "+
			"again: every migration makes a hog function, and a second one would make a second. Before applying "+
			"again, look at the project's hog functions and whether %s %d is now disabled: if the migration "+
			"happened, take this migration out of the configuration instead.", framework.DescribeError(err), k.Noun, id))
	default:
		framework.AddCustomActionError(diags, summary, framework.ActionMigrate, err, nil)
	}
}
