package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// IsSet reports whether v holds a value to send: neither null nor unknown.
func IsSet(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

// StoreIdentity stores a resource's identity model v when Terraform
// supports identities (1.12+: the framework then hands a non-nil identity).
func StoreIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, v any) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, v)
}
