package configresource

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// Model is the config resource's model: the config (record.Config), the
// write-only secret settings with their version, and the timeouts.
type Model struct {
	record.Config
	SecretSettings        types.String   `tfsdk:"secret_config_wo"`
	SecretSettingsVersion types.Int64    `tfsdk:"secret_config_wo_version"`
	Timeouts              timeouts.Value `tfsdk:"timeouts"`
}

// identityModel is the config resource's identity (Terraform 1.12+).
type identityModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	ID        types.Int64  `tfsdk:"id"`
}

// sameArguments reports whether a and b agree on every argument the
// service stores (another project_id is a replacement, and filters that
// filter nothing are the same, however written).
func sameArguments(a, b *record.Config) bool {
	return a.Plugin.Equal(b.Plugin) &&
		a.Enabled.Equal(b.Enabled) && a.Order.Equal(b.Order) &&
		a.Name.Equal(b.Name) && a.Description.Equal(b.Description) &&
		(a.Filters.Equal(b.Filters) || a.Filters.FiltersNothing() && b.Filters.FiltersNothing()) &&
		a.Settings.Equal(b.Settings)
}

// SetIdentity stores the identity of the config c (framework.StoreIdentity).
func SetIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, c *record.Config) diag.Diagnostics {
	return framework.StoreIdentity(ctx, identity, identityOf(c))
}

// identityOf is the identity of the config c.
func identityOf(c *record.Config) identityModel {
	return identityModel{ProjectID: c.ProjectID, ID: c.ID}
}
