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
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
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

// ProjectWitness names the record that decides, when a plan meets one
// project written in the other form ("@current" for the project's id, or
// back) and no answer has told what "@current" stands for, whether the two
// are one project (client.SameProject): a record of Collection that belongs
// to the state's project, whose id the state's attribute IDAttribute holds
// (a number, or a list of numbers whose first is taken).
type ProjectWitness struct {
	Collection  client.Collection
	IDAttribute string
}

// id reads the witness's record id from a state; 0 when it holds none.
func (w ProjectWitness) id(state tftypes.Value) int64 {
	v := RawAttributes(state)[w.IDAttribute]
	var elems []tftypes.Value
	if v.Type() != nil && v.Type().Is(tftypes.List{}) && v.IsKnown() && !v.IsNull() && v.As(&elems) == nil {
		if len(elems) == 0 {
			return 0
		}
		v = elems[0]
	}
	return RawInt64(v).ValueInt64()
}

// PlanProjectID, called first from a resource's ModifyPlan, plans
// project_id: as configured, or, left out, as the provider's project; and
// asks for replacement only when the planned project is another project
// than the state's. "@current" and the project's id are one project
// (client.SameProject, which knows what "@current" stands for from the
// answers the provider already had, or else looks up the witness once per
// provider configuration). A project_id left out that names the state's
// project in the other form keeps the state's: the state holds what was
// configured, created with or imported, never rewritten for its form alone,
// so an import of "1/42" under a provider of "@current" plans nothing. A
// configured one in the other form is planned as configured (Terraform
// wants the configured value), an update that sends nothing.
//
// It lives in ModifyPlan rather than in attribute plan modifiers because
// only the configured resource instance knows the provider's project, and
// deciding may need the service.
func PlanProjectID(ctx context.Context, meta *ProviderData, w ProjectWitness, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // a destroy
	}
	// Raw values: this runs in every plan of every resource, and the
	// framework's path lookups cost more than the rest of such a plan's
	// provider code.
	configured := RawString(RawAttributes(req.Config.Raw)[projectIDName])
	prior := types.StringNull()
	if !req.State.Raw.IsNull() {
		prior = RawString(RawAttributes(req.State.Raw)[projectIDName])
	}
	if meta == nil || configured.IsUnknown() {
		// Nothing to compare with yet (the provider's configuration, or the
		// project, is known only at apply): a configured project written
		// otherwise than the state's replaces.
		if !configured.IsNull() && IsSet(prior) && !configured.Equal(prior) {
			resp.RequiresReplace = append(resp.RequiresReplace, ProjectIDPath)
		}
		return
	}
	planned := configured.ValueString()
	if configured.IsNull() {
		if planned = ProjectOrDefault(configured, meta, &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}
	}
	if IsSet(prior) && prior.ValueString() != planned {
		same, err := meta.Client.SameProject(ctx, prior.ValueString(), planned, w.Collection, w.id(req.State.Raw))
		switch {
		case err != nil:
			resp.Diagnostics.AddAttributeError(ProjectIDPath, "Could not compare the projects", fmt.Sprintf(
				"The state's project is %q and the plan's %q: looking up a config to tell whether they are the same "+
					"project failed.\n\n%s", prior.ValueString(), planned, DescribeError(err)))
			return
		case !same:
			resp.RequiresReplace = append(resp.RequiresReplace, ProjectIDPath)
		case configured.IsNull():
			planned = prior.ValueString()
		}
	}
	if configured.IsNull() && RawString(RawAttributes(resp.Plan.Raw)[projectIDName]).ValueString() != planned {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, ProjectIDPath, planned)...)
	}
}
