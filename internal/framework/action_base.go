package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ActionBase implements Metadata and Configure for an action (Terraform
// 1.14+), like ResourceBase does for a resource. A list resource needs no
// base of its own: its Metadata and Configure take a resource's requests, so
// it embeds ResourceBase.
type ActionBase struct {
	withMeta
	typeSuffix string
}

// NewActionBase returns a base for an action named
// <provider type name><typeSuffix>.
func NewActionBase(typeSuffix string) ActionBase {
	return ActionBase{typeSuffix: typeSuffix}
}

// Metadata implements action.Action.
func (b *ActionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + b.typeSuffix
}

// Configure implements action.ActionWithConfigure.
func (b *ActionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// Progress sends an action's progress message when Terraform listens for
// them.
func Progress(resp *action.InvokeResponse, msg string) {
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}
}

// PlanCheck, called from an action's ModifyPlan, runs check with the
// provider data and the project the action will use (its project_id, else
// the provider's), once the provider is configured and the project known.
func (b *ActionBase) PlanCheck(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics,
	check func(meta *ProviderData, project string) diag.Diagnostics,
) {
	meta := b.Meta()
	if meta == nil {
		return
	}
	var configured types.String
	diags.Append(config.GetAttribute(ctx, ProjectIDPath, &configured)...)
	if diags.HasError() || configured.IsUnknown() {
		return
	}
	project := ProjectOrDefault(configured, meta, diags)
	if diags.HasError() {
		return
	}
	diags.Append(check(meta, project)...)
}
