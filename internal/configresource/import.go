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

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
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

// refuseMissingImport says why config id of project cannot be imported (err:
// the read's 404, nil for a deleted config) and what to do, where
// Terraform's own error would offer a create the service may not make.
func (r *configResource) refuseMissingImport(ctx context.Context, c *client.Client, project string, id int64, err error, diags *diag.Diagnostics) {
	switch {
	case err == nil:
		diags.AddError(fmt.Sprintf("Cannot import %s %d: it was deleted", r.kind.Noun, id), fmt.Sprintf(
			"The service shows config %d of project %s with deleted = true: it was deleted, in PostHog's UI or by a "+
				"destroy, and Terraform imports only configs that are not. %s Otherwise remove the import.",
			id, project, restoreNote(project, r.kind.Collection, id)))
	case client.IsProjectNotFound(err):
		diags.AddError(fmt.Sprintf("Cannot import %s %d: project %s not found", r.kind.Noun, id, project), fmt.Sprintf(
			"%s\n\nThe service has no project %s. Check the project of the import: the part of the import ID "+
				"before the slash (1 in 1/42), or the identity's project_id; an import without one uses the provider's "+
				"project_id.", framework.DescribeError(err), project))
	default:
		for _, other := range r.kind.OwnFirst()[1:] { // another kind's collection may show it
			if rec, getErr := c.Get(ctx, project, other.Collection, id); getErr == nil {
				detail := fmt.Sprintf("The %ss of project %s do not show config %d, and the %ss do. Import it into "+
					"%s instead: an import block with to = %s.NAME and id = \"%s/%d\", beside a resource block of that type.",
					r.kind.Noun, project, id, other.Noun, other.ConfigTypeName(), other.ConfigTypeName(), project, id)
				if rec.Deleted {
					detail += " It was deleted, too. " + restoreNote(project, other.Collection, id)
				}
				diags.AddError(fmt.Sprintf("Cannot import config %d as %s: it is %s", id, r.kind.ConfigTypeName(), other.ConfigTypeName()), detail)
				return
			}
		}
		var nouns []string
		for _, k := range r.kind.OwnFirst() {
			nouns = append(nouns, k.Noun+"s")
		}
		detail := fmt.Sprintf("%s\n\nProject %s has no config %d among its %s. Check the id: the data source "+
			"%s lists the configs of a project with their ids.", framework.DescribeError(err), project, id,
			strings.Join(nouns, " or "), framework.ProviderTypeName+r.kind.TypeSuffix("configs"))
		if stores, known := c.LearnStoresConfigs(ctx, project, r.kind.Collection); known && !stores {
			detail += fmt.Sprintf(" Terraform cannot create it instead: the service no longer makes plugin configs (%s).",
				client.Generation2Since)
		}
		diags.AddError(fmt.Sprintf("Cannot import %s %d: no such config", r.kind.Noun, id), detail)
	}
}
