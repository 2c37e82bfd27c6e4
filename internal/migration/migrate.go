// Package migration is the resource pipeline_KIND_migration and the action
// pipeline_KIND_migrate: a config turned into a hog function by the service's
// migrate action, never sent twice for one create or invocation.
package migration

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/job"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// Migrate is the resource pipeline_KIND_migration, which turns its config
// into a hog function on create, and the action pipeline_KIND_migrate. The
// disabled config belongs to the config resource, the hog function to the
// official PostHog provider; the resource only remembers the answer.
var Migrate = &job.Event[model, job.Target, client.HogFunction]{
	Resource:       "migration",
	Action:         "migrate",
	ResourceSchema: resourceSchema,
	ActionSchema:   actionSchema,
	Args:           func(m *model) *job.Target { return &m.Target },
	Target:         func(t *job.Target) *job.Target { return t },
	Check:          check,
	Call:           migrate,
	Record: func(m *model, project string, hf client.HogFunction) {
		m.ID = types.StringValue(fmt.Sprintf("%s/%d", project, m.ConfigID.ValueInt64()))
		m.HogFunctionID = types.StringNull()
		if hf.ID != "" {
			m.HogFunctionID = types.StringValue(hf.ID)
		}
		m.HogFunction = jsontypes.NewNormalizedValue(string(hf.JSON))
	},
	Forget: func(k kind.Kind, state *model, diags *diag.Diagnostics) {
		diags.AddWarning("A migration cannot be undone", fmt.Sprintf(
			"The migration of %s %d was removed from the state only. Hog function %s and the disabled config stay on "+
				"the service: manage the hog function with the official PostHog provider, and delete the config "+
				"there if you no longer need it.",
			k.Noun, state.ConfigID.ValueInt64(), state.HogFunctionID.ValueString()))
	},
	Starting: func(k kind.Kind, project string, t *job.Target) string {
		return fmt.Sprintf("Migrating %s %d of project %s to a hog function", k.Noun, t.ConfigID.ValueInt64(), project)
	},
	Done: func(k kind.Kind, t *job.Target, hf client.HogFunction) string {
		return fmt.Sprintf("The service made hog function %s (%q) of %s %d and disabled the config",
			hf.ID, hf.Name, k.Noun, t.ConfigID.ValueInt64())
	},
}

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

type model struct {
	job.Target
	ID            types.String         `tfsdk:"id"`
	HogFunctionID types.String         `tfsdk:"hog_function_id"`
	HogFunction   jsontypes.Normalized `tfsdk:"hog_function"`
}

func configIDDescription(k kind.Kind) string {
	return fmt.Sprintf("Identifier of the %s to turn into a hog function.", k.Noun)
}

func resourceSchema(k kind.Kind) schema.Schema {
	return schema.Schema{
		MarkdownDescription: fmt.Sprintf("Turns an existing %s into a hog function once, when created; the "+
			"config is disabled, not deleted. Today's PostHog lets no API key do this: see the guide \"Moving to "+
			"hog functions\".", k.Noun),
		Attributes: job.WithTarget(configIDDescription(k)+" Changing it migrates that config too.", map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of this migration: `<project_id>/<config_id>`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"hog_function_id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Identifier of the hog function PostHog made, to import it as a " +
					"`posthog_hog_function` of the official PostHog provider.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"hog_function": schema.StringAttribute{
				CustomType: jsontypes.NormalizedType{},
				Computed:   true,
				MarkdownDescription: "The hog function as PostHog made it, a JSON object (read it with " +
					"`jsondecode`); secret inputs are masked.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		}),
	}
}

func actionSchema(k kind.Kind) actionschema.Schema {
	return actionschema.Schema{
		MarkdownDescription: fmt.Sprintf("Turns an existing %s into a hog function each time the action is "+
			"invoked (Terraform 1.14+). Today's PostHog lets no API key do this: see the guide \"Moving to hog "+
			"functions\".", k.Noun),
		Attributes: job.WithActionTarget(configIDDescription(k), map[string]actionschema.Attribute{}),
	}
}
