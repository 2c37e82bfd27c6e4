package framework

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var projectIDPattern = regexp.MustCompile(`^([1-9][0-9]*|@current)$`)

// ValidProjectID reports whether s is a project id the service accepts in a
// path: a positive integer or "@current" (the key owner's current project).
func ValidProjectID(s string) bool { return projectIDPattern.MatchString(s) }

// ProjectIDValidator refuses project ids other than a positive integer or
// "@current" (the service answers 404 for anything else).
func ProjectIDValidator() validator.String {
	return stringvalidator.RegexMatches(projectIDPattern, `must be a positive integer or "@current"`)
}

// projectIDName is the name of the project_id attribute every construct has.
const projectIDName = "project_id"

// ProjectIDPath is the path of the project_id attribute every construct has.
var ProjectIDPath = path.Root(projectIDName)

// ProjectOrDefault is the one resolution of a construct's project: the
// configured project_id, or the provider's when the configuration (or an
// import identity) leaves it out. With neither it adds the one "Missing
// project_id" error and returns "".
func ProjectOrDefault(configured types.String, meta *ProviderData, diags *diag.Diagnostics) string {
	if IsSet(configured) && configured.ValueString() != "" {
		return configured.ValueString()
	}
	if meta != nil && meta.ProjectID != "" {
		return meta.ProjectID
	}
	diags.AddAttributeError(ProjectIDPath, "Missing project_id",
		"No project to work in: set project_id, or the provider's project_id (or the POSTHOG_PROJECT_ID "+
			"environment variable).")
	return ""
}

// ImportProject is the project an import identity names (ProjectOrDefault),
// checked as the project_id validator checks a configured one.
func ImportProject(identityProject types.String, meta *ProviderData, diags *diag.Diagnostics) string {
	project := ProjectOrDefault(identityProject, meta, diags)
	if project != "" && !ValidProjectID(project) {
		diags.AddAttributeError(ProjectIDPath, "Invalid project_id",
			fmt.Sprintf(`project_id must be a positive integer or "@current", got %q.`, project))
	}
	return project
}

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
	// Raw values: this runs in every plan of every resource, and the
	// framework's path lookups cost more than the rest of such a plan's
	// provider code.
	configured := RawString(RawAttributes(req.Config.Raw)[projectIDName])
	if !configured.IsNull() {
		return
	}
	project := ProjectOrDefault(configured, meta, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if RawString(RawAttributes(resp.Plan.Raw)[projectIDName]).ValueString() != project {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, ProjectIDPath, project)...)
	}

	if req.State.Raw.IsNull() {
		return
	}
	if prior := RawString(RawAttributes(req.State.Raw)[projectIDName]); IsSet(prior) && prior.ValueString() != project {
		resp.RequiresReplace = append(resp.RequiresReplace, ProjectIDPath)
	}
}
