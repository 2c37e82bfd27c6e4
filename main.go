// Command terraform-provider-pipeline is the Terraform provider for the
// pipeline config records (transformation and import-app configs) of a
// PostHog-style service.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
)

// version is the provider's release, set at build time with
// -ldflags "-X main.version=...".
var version = "dev"

// stopProfile ends the CPU profile of a benchmark build (profile_bench.go).
var stopProfile = func() {}

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	tuneGC()
	var opts []tf6server.ServeOpt
	var orphaned <-chan struct{} // nil, never closed, under a debugger
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	} else { // started by Terraform, which may be killed
		quietUnlessLogged()
		orphaned = createonce.Orphaned()
	}
	served := make(chan error, 1)
	go func() {
		// providerserver.Serve, with the request contexts released (release.go).
		served <- tf6server.Serve(provider.Address, func() tfprotov6.ProviderServer {
			return releaseRequestContexts(providerserver.NewProtocol6(provider.New(version)())())
		}, opts...)
	}()
	var err error
	select {
	case err = <-served:
	case <-orphaned: // go-plugin would serve on; the journal keeps the orphans
		os.Exit(1)
	}
	stopProfile()
	if err != nil {
		log.Fatal(err)
	}
	createonce.Finish() // a finished run's creates are in the state: the journal forgets them
}
