package migration

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/job"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
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
