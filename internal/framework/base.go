package framework

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// withMeta keeps the provider data handed to Configure.
type withMeta struct {
	meta *ProviderData
}

// Meta returns the provider data, or nil before the provider is configured
// (during validation, or while its configuration holds unknown values).
func (w *withMeta) Meta() *ProviderData { return w.meta }

// configure stores the provider data; nil is normal before the provider is
// configured.
func (w *withMeta) configure(data any, diags *diag.Diagnostics) {
	if data == nil {
		return
	}
	meta, ok := data.(*ProviderData)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *framework.ProviderData, got %T. This is a bug in the provider.", data))
		return
	}
	w.meta = meta
}

// MustMeta returns the provider data, or adds an error and returns nil when
// the provider is not configured yet.
func (w *withMeta) MustMeta(diags *diag.Diagnostics) *ProviderData {
	if w.meta == nil {
		diags.AddError("Provider not configured",
			"The pipeline provider has not been configured, so the API cannot be called. "+
				"This happens when the provider configuration depends on values that are only known after apply.")
	}
	return w.meta
}

// MustProject returns the provider data and the project to work in
// (ProjectOrDefault); nil, "" with an error when either is missing.
func (w *withMeta) MustProject(configured types.String, diags *diag.Diagnostics) (*ProviderData, string) {
	meta := w.MustMeta(diags)
	if meta == nil {
		return nil, ""
	}
	return meta, ProjectOrDefault(configured, meta, diags)
}

// ResourceBase implements Metadata and Configure for a resource (and a list
// resource, whose requests are a resource's) named by NewResourceBase.
type ResourceBase struct {
	withMeta
	typeSuffix string
}

// NewResourceBase returns a base for the resource <provider><typeSuffix>.
func NewResourceBase(typeSuffix string) ResourceBase {
	return ResourceBase{typeSuffix: typeSuffix}
}

// Metadata implements resource.Resource.
func (b *ResourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + b.typeSuffix
}

// Configure implements resource.ResourceWithConfigure.
func (b *ResourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// DataSourceBase implements Metadata and Configure for a data source.
type DataSourceBase struct {
	withMeta
	typeSuffix string
}

// NewDataSourceBase returns a base for the data source <provider><typeSuffix>.
func NewDataSourceBase(typeSuffix string) DataSourceBase {
	return DataSourceBase{typeSuffix: typeSuffix}
}

// Metadata implements datasource.DataSource.
func (b *DataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + b.typeSuffix
}

// Configure implements datasource.DataSourceWithConfigure.
func (b *DataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// ActionBase implements Metadata and Configure for an action.
type ActionBase struct {
	withMeta
	typeSuffix string
}

// NewActionBase returns a base for the action <provider><typeSuffix>.
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

// Progress sends an action's progress message when Terraform listens.
func Progress(resp *action.InvokeResponse, msg string) {
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}
}

// PlanCheck, from an action's ModifyPlan, runs check with the project the
// action will use once the provider is configured and the project known.
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

// EventResource is the base of a resource that stands for an event on the
// service (a job run, a migration): every argument forces replacement, so
// the service is called on create only.
type EventResource struct {
	ResourceBase
}

// NewEventResource returns the base of the event resource <provider><typeSuffix>.
func NewEventResource(typeSuffix string) EventResource {
	return EventResource{ResourceBase: NewResourceBase(typeSuffix)}
}

// Read calls nothing: an event is past, there is nothing to refresh.
func (EventResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

// Update happens only when nothing that matters changed (project_id written
// in the other form): the plan becomes the state.
func (EventResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

// PlanCreate, from ModifyPlan, plans project_id (PlanProjectID) and runs
// check on a planned create once the provider and project are known.
// Terraform plans a replacement again as a create, so that looks once.
func (b *EventResource) PlanCreate(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse,
	w ProjectWitness, check func(meta *ProviderData, project string) diag.Diagnostics,
) {
	meta := b.Meta()
	PlanProjectID(ctx, meta, w, req, resp)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || meta == nil {
		return
	}
	var project types.String
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, ProjectIDPath, &project)...)
	if resp.Diagnostics.HasError() || !IsSet(project) {
		return
	}
	resp.Diagnostics.Append(check(meta, project.ValueString())...)
}
