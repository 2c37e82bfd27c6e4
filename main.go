// Command terraform-provider-pipeline is the Terraform provider for the
// pipeline config records (transformation and import-app configs) of a
// PostHog-style service.
package main

import (
	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/serve"
)

// version is the provider's release, set at build time with
// -ldflags "-X main.version=...".
var version = "dev"

func main() {
	serve.Main(provider.Address, providerserver.NewProtocol6(provider.New(version)()), serve.Hooks{
		// A finished run's creates are in the state: the journal forgets
		// them. A killed run's creates under way are recorded first.
		ShutDown: createonce.Finish,
		Orphaned: func() { createonce.Drain(createonce.DrainTimeout) },
	})
}
