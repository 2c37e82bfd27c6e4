package framework

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// withMeta keeps the provider data handed to Configure.
type withMeta struct {
	meta *ProviderData
}

// Meta returns the provider data, or nil before the provider is configured
// (during validation, or when its configuration holds unknown values).
func (w *withMeta) Meta() *ProviderData { return w.meta }

// configure stores the provider data; a nil value is normal before the
// provider is configured.
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
// the provider is not configured yet: resources that talk to the API need it.
func (w *withMeta) MustMeta(diags *diag.Diagnostics) *ProviderData {
	if w.meta == nil {
		diags.AddError("Provider not configured",
			"The pipeline provider has not been configured, so the API cannot be called. "+
				"This happens when the provider configuration depends on values that are only known after apply.")
	}
	return w.meta
}

// MustProject returns the provider data and the project to work in: the
// configured project_id, else the provider's (see ProjectOrDefault). It adds
// an error and returns nil, "" when the provider is not configured, and adds
// one and returns "" when there is no project.
func (w *withMeta) MustProject(configured types.String, diags *diag.Diagnostics) (*ProviderData, string) {
	meta := w.MustMeta(diags)
	if meta == nil {
		return nil, ""
	}
	return meta, ProjectOrDefault(configured, meta, diags)
}

// ResourceBase implements Metadata and Configure for a resource. Embed it by
// value and set the type name with NewResourceBase.
type ResourceBase struct {
	withMeta
	// typeSuffix follows the provider's type name, e.g. "_transformation_config".
	typeSuffix string
}

// NewResourceBase returns a base for a resource named
// <provider type name><typeSuffix>.
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

// NewDataSourceBase returns a base for a data source named
// <provider type name><typeSuffix>.
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
