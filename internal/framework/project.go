package framework

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// CurrentProject is the project id the service resolves to the key owner's
// current project.
const CurrentProject = "@current"

var projectIDPattern = regexp.MustCompile(`^([1-9][0-9]*|@current)$`)

// ValidProjectID reports whether s is a project id the service accepts in a
// path: a positive integer or "@current".
func ValidProjectID(s string) bool { return projectIDPattern.MatchString(s) }

// ProjectIDValidator refuses project ids other than a positive integer or
// "@current" (the service answers 404 for anything else).
func ProjectIDValidator() validator.String {
	return stringvalidator.RegexMatches(projectIDPattern, `must be a positive integer or "@current"`)
}

// ProjectIDPath is the path of the project_id attribute every construct has.
var ProjectIDPath = path.Root("project_id")

// PlanDefaultProjectID, called from a resource's ModifyPlan, plans
// project_id as the provider's project when the configuration leaves it out,
// and asks for replacement when that moves an existing resource to another
// project. It lives in ModifyPlan rather than in an attribute plan modifier
// because only the configured resource instance knows the provider's project.
func PlanDefaultProjectID(ctx context.Context, meta *ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || meta == nil {
		// Destroy, or a provider configuration not known yet.
		return
	}
	var configured types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, ProjectIDPath, &configured)...)
	if resp.Diagnostics.HasError() || !configured.IsNull() {
		return
	}
	if meta.ProjectID == "" {
		resp.Diagnostics.AddAttributeError(ProjectIDPath, "Missing project_id",
			"No project to manage this resource in: set project_id on the resource, or project_id "+
				"(or the POSTHOG_PROJECT_ID environment variable) on the provider.")
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, ProjectIDPath, meta.ProjectID)...)

	if req.State.Raw.IsNull() {
		return
	}
	var prior types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, ProjectIDPath, &prior)...)
	if !prior.IsNull() && !prior.IsUnknown() && prior.ValueString() != meta.ProjectID {
		resp.RequiresReplace = append(resp.RequiresReplace, ProjectIDPath)
	}
}
