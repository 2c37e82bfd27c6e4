package framework

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// base keeps a construct's type suffix and its provider data.
type base struct {
	typeSuffix string
	meta       *ProviderData
}

// Meta returns the provider data, or nil before the provider is configured
// (during validation, or while its configuration holds unknown values).
func (b *base) Meta() *ProviderData { return b.meta }

// configure stores the provider data, nil before the provider is configured.
func (b *base) configure(data any, diags *diag.Diagnostics) {
	if data == nil {
		return
	}
	meta, ok := data.(*ProviderData)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *framework.ProviderData, got %T. This is a bug in the provider.", data))
		return
	}
	b.meta = meta
}

// MustMeta returns the provider data, or nil and an error before the provider is configured.
func (b *base) MustMeta(diags *diag.Diagnostics) *ProviderData {
	if b.meta == nil {
		diags.AddError("Provider not configured",
			"The pipeline provider has not been configured, so the API cannot be called. "+
				"This happens when the provider configuration depends on values that are only known after apply.")
	}
	return b.meta
}

// MustProject returns the provider data and the project to work in
// (ProjectOrDefault); nil, "" with an error when either is missing.
func (b *base) MustProject(configured types.String, diags *diag.Diagnostics) (*ProviderData, string) {
	meta := b.MustMeta(diags)
	if meta == nil {
		return nil, ""
	}
	return meta, ProjectOrDefault(configured, meta, diags)
}

// ResourceBase implements Metadata and Configure for a resource (and a list
// resource, whose requests are a resource's).
type ResourceBase struct{ base }

// NewResourceBase returns a base for the resource <provider><typeSuffix>.
func NewResourceBase(typeSuffix string) ResourceBase {
	return ResourceBase{base{typeSuffix: typeSuffix}}
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
type DataSourceBase struct{ base }

// NewDataSourceBase returns a base for the data source <provider><typeSuffix>.
func NewDataSourceBase(typeSuffix string) DataSourceBase {
	return DataSourceBase{base{typeSuffix: typeSuffix}}
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
type ActionBase struct{ base }

// NewActionBase returns a base for the action <provider><typeSuffix>.
func NewActionBase(typeSuffix string) ActionBase { return ActionBase{base{typeSuffix: typeSuffix}} }

// Metadata implements action.Action.
func (b *ActionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + b.typeSuffix
}

// Configure implements action.ActionWithConfigure.
func (b *ActionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}
