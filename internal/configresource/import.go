package configresource

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

const importIDFormat = "<project_id>/<id> (e.g. 1/42), or <id> alone when the provider has a project_id"

// ImportState implements resource.ResourceWithImportState: by ID or, on
// Terraform 1.12+, by identity; Read fills in the rest.
func (r *configResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var project string
	var id int64
	if req.ID != "" {
		var defaultProject string
		if meta := r.Meta(); meta != nil {
			defaultProject = meta.ProjectID
		}
		var err error
		if project, id, err = parseImportID(req.ID, defaultProject); err != nil {
			resp.Diagnostics.AddError("Invalid import ID", err.Error())
		}
	} else {
		var ident identityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
		if !resp.Diagnostics.HasError() {
			project, id = framework.ImportProject(ident.ProjectID, r.Meta(), &resp.Diagnostics), ident.ID.ValueInt64()
		}
		if !resp.Diagnostics.HasError() && id <= 0 {
			resp.Diagnostics.AddAttributeError(idPath, "Invalid id",
				fmt.Sprintf("id must be a positive integer, got %d.", id))
		}
	}
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(storeProjectAndID(ctx, &resp.State, resp.Identity, project, id)...)
	}
}

// storeProjectAndID stores the state of an import or a move: project and id
// alone, which the next read fills in.
func storeProjectAndID(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, project string, id int64) diag.Diagnostics {
	ident := identityModel{ProjectID: types.StringValue(project), ID: types.Int64Value(id)}
	diags := state.SetAttribute(ctx, framework.ProjectIDPath, ident.ProjectID)
	diags.Append(state.SetAttribute(ctx, idPath, ident.ID)...)
	return append(diags, framework.SetImportedIdentity(ctx, identity, ident)...)
}

// parseImportID parses "project_id/id", or "id" with the provider's project.
func parseImportID(importID, defaultProject string) (string, int64, error) {
	project, rawID, found := strings.Cut(importID, "/")
	if !found {
		project, rawID = defaultProject, importID
		if project == "" {
			return "", 0, fmt.Errorf("import ID %q has no project and the provider has no project_id: "+
				"expected %s", importID, importIDFormat)
		}
	} else if !framework.ValidProjectID(project) {
		return "", 0, fmt.Errorf(`import ID %q: the project must be a positive integer or "@current"; expected %s`,
			importID, importIDFormat)
	}
	id, err := strconv.ParseInt(rawID, 10, 64)
	if err != nil || id <= 0 {
		return "", 0, fmt.Errorf("import ID %q: the config id must be a positive integer; expected %s",
			importID, importIDFormat)
	}
	return project, id, nil
}
