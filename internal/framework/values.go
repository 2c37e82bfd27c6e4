package framework

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// IsSet reports whether v holds a value to send: neither null nor unknown.
func IsSet(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

// RawAttributes returns the attribute values of a configuration, plan or
// state; nil when null or unknown. Far cheaper than the framework's path
// lookups or model conversions, which walk the schema.
func RawAttributes(v tftypes.Value) map[string]tftypes.Value {
	var m map[string]tftypes.Value
	if !v.IsKnown() || v.IsNull() || v.As(&m) != nil {
		return nil
	}
	return m
}

// RawString converts a raw string value (absent: null; not a string: unknown).
func RawString(v tftypes.Value) types.String {
	var s string
	switch {
	case v.IsNull():
		return types.StringNull()
	case !v.IsKnown() || v.As(&s) != nil:
		return types.StringUnknown()
	}
	return types.StringValue(s)
}

// RawInt64 converts a raw number value (absent: null; not an int64: unknown).
func RawInt64(v tftypes.Value) types.Int64 {
	var n big.Float
	switch {
	case v.IsNull():
		return types.Int64Null()
	case !v.IsKnown() || v.As(&n) != nil:
		return types.Int64Unknown()
	}
	if i, acc := n.Int64(); acc == big.Exact { // a fraction or out of range is not
		return types.Int64Value(i)
	}
	return types.Int64Unknown()
}

var projectIDPattern = regexp.MustCompile(`^([1-9][0-9]*|@current)$`)

// ValidProjectID reports whether s is a project id the service accepts: a
// positive integer or "@current" (the key owner's current project).
func ValidProjectID(s string) bool { return projectIDPattern.MatchString(s) }

// ProjectIDValidator refuses what ValidProjectID refuses (the service
// answers 404 for it).
func ProjectIDValidator() validator.String {
	return stringvalidator.RegexMatches(projectIDPattern, `must be a positive integer or "@current"`)
}

const projectIDName = "project_id"

// ProjectIDPath is the path of the project_id every construct has.
var ProjectIDPath = path.Root(projectIDName)

// ProjectOrDefault is the one resolution of a construct's project: the
// configured project_id, else the provider's, else an error and "".
func ProjectOrDefault(configured types.String, meta *ProviderData, diags *diag.Diagnostics) string {
	if configured.ValueString() != "" { // neither null nor unknown
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

// ImportProject is the project an import identity names, checked as the
// validator checks a configured one.
func ImportProject(identityProject types.String, meta *ProviderData, diags *diag.Diagnostics) string {
	project := ProjectOrDefault(identityProject, meta, diags)
	if project != "" && !ValidProjectID(project) {
		diags.AddAttributeError(ProjectIDPath, "Invalid project_id",
			fmt.Sprintf(`project_id must be a positive integer or "@current", got %q.`, project))
	}
	return project
}

// ProjectWitness names a record of the state's project for client.SameProject:
// the id in IDAttribute, or that list's first.
type ProjectWitness struct {
	Collection  client.Collection
	IDAttribute string
}

// id reads the witness's record id from a state; 0 when it holds none.
func (w ProjectWitness) id(state tftypes.Value) int64 {
	v := RawAttributes(state)[w.IDAttribute]
	var elems []tftypes.Value
	if v.As(&elems) == nil && len(elems) > 0 { // a list of ids
		v = elems[0]
	}
	return RawInt64(v).ValueInt64()
}

// PlanProjectID plans project_id as configured or the provider's, replacing
// only for another project; one left out that names the state's project in
// the other form keeps the state's. In ModifyPlan: only a configured resource
// knows the provider's project.
func PlanProjectID(ctx context.Context, meta *ProviderData, w ProjectWitness, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // a destroy
	}
	// Raw values: the framework's path lookups cost more than the rest of such a plan.
	configured := RawString(RawAttributes(req.Config.Raw)[projectIDName])
	prior := RawString(RawAttributes(req.State.Raw)[projectIDName]) // absent (a create): null
	if meta == nil || configured.IsUnknown() {
		// Known only at apply: a configured project written otherwise replaces.
		if !configured.IsNull() && IsSet(prior) && !configured.Equal(prior) {
			resp.RequiresReplace = append(resp.RequiresReplace, ProjectIDPath)
		}
		return
	}
	planned := ProjectOrDefault(configured, meta, &resp.Diagnostics)
	if planned == "" {
		return
	}
	if IsSet(prior) && prior.ValueString() != planned {
		witness := w.id(req.State.Raw)
		same, err := meta.Client.SameProject(ctx, prior.ValueString(), planned, w.Collection, witness)
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

// StoreIdentity stores identity v when Terraform supports identities and the
// resource holds none yet: the framework refuses a changed identity.
func StoreIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, v any) diag.Diagnostics {
	if identity == nil || !identity.Raw.IsFullyNull() {
		return nil
	}
	return identity.Set(ctx, v)
}

// SetImportedIdentity stores the identity an import resolved over the one it named.
func SetImportedIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, v any) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, v)
}

// JSONStateUpgrader upgrades a state of a noun by change to its JSON
// attributes; the others keep their values, so the next plan shows no change.
func JSONStateUpgrader(noun string, change func(attrs map[string]json.RawMessage)) resource.StateUpgrader {
	return resource.StateUpgrader{StateUpgrader: func(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
		upgraded, err := UpgradeJSON(req.RawState.JSON, change) // the framework calls no upgrader without a state
		if err != nil {
			resp.Diagnostics.AddError("Unexpected state of an earlier version", fmt.Sprintf(
				"The state of this %s is not the JSON object an earlier version of the provider wrote. "+
					"Remove it from the state (terraform state rm) and import the %s again.", noun, noun))
			return
		}
		resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
	}}
}

// UpgradeJSON applies change to the attributes of a state's JSON.
func UpgradeJSON(raw []byte, change func(attrs map[string]json.RawMessage)) ([]byte, error) {
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil || attrs == nil {
		return nil, errors.New("its state is not a JSON object of attributes")
	}
	change(attrs)
	return json.Marshal(attrs)
}
