// Package framework holds what every resource and data source of the provider
// shares: the data the provider hands them, small base structs to embed
// (in the spirit of terraform-provider-aws's internal/framework), the
// project_id attribute they all take, and the mapping of API errors to
// diagnostics.
package framework

import (
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// ProviderData is what the configured provider hands to every resource and
// data source.
type ProviderData struct {
	// Client is the one API client of the provider.
	Client *client.Client
	// ProjectID is the provider's default project: an integer or "@current",
	// or "" when the provider has none.
	ProjectID string
}

// ProviderTypeName is the provider's type name, the prefix of every
// construct's type name.
const ProviderTypeName = "pipeline"
