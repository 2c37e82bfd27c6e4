// Command terraform-provider-pipeline is the Terraform provider for the
// pipeline config records (transformation and import-app configs) of a
// PostHog-style service.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
)

// version is the provider's release, set at build time with
// -ldflags "-X main.version=...".
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/pipelinecfg/pipeline",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}
