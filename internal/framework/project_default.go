package framework

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ProjectOrDefault returns the configured project_id, or the provider's when
// the configuration leaves it out. With neither it adds an error on
// project_id and returns "". For constructs without a plan to put the
// default in (data sources, actions, list resources) and for apply-time
// fallbacks.
func ProjectOrDefault(configured types.String, meta *ProviderData, diags *diag.Diagnostics) string {
	if !configured.IsNull() && !configured.IsUnknown() && configured.ValueString() != "" {
		return configured.ValueString()
	}
	if meta != nil && meta.ProjectID != "" {
		return meta.ProjectID
	}
	diags.AddAttributeError(ProjectIDPath, "Missing project_id",
		"No project to work in: set project_id here, or project_id (or the POSTHOG_PROJECT_ID environment "+
			"variable) on the provider.")
	return ""
}
