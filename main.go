// Command terraform-provider-pipeline is the Terraform provider for the
// pipeline config records (transformation and import-app configs) of a
// PostHog-style service.
package main

import (
	"flag"
	"log"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
)

// version is the provider's release, set at build time with
// -ldflags "-X main.version=...".
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug {
		// Started by Terraform, not by a developer with a debugger.
		quietUnlessLogged()
		exitWhenOrphaned()
	}

	if err := provider.Serve(version, debug); err != nil {
		log.Fatal(err)
	}
}
