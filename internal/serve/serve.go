// Package serve runs a terraform-plugin-framework provider as the plugin
// process Terraform starts: over protocol 6, with the four things a
// provider needs to stay lean that neither the framework nor
// terraform-plugin-go does by itself: no logs that Terraform would drop
// (logging.go), request contexts let go of once a request returns
// (release.go), a garbage collector sized for many short requests (gc.go),
// and an exit once Terraform is gone (orphan.go).
package serve

import (
	"flag"
	"log"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// Main serves the provider whose registry address is address (e.g.
// registry.terraform.io/pipelinecfg/pipeline) until Terraform stops it; a
// -debug flag serves it for a debugger instead (Terraform then attaches with
// TF_REATTACH_PROVIDERS, and logs stay as they are).
//
// hooks tell the provider how its process ends.
func Main(address string, newServer func() tfprotov6.ProviderServer, hooks Hooks) {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	tuneGC()
	stopProfile := startProfile()
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	} else {
		// Started by Terraform.
		quietUnlessLogged(providerLogVariable(address))
		exitWhenOrphaned(hooks.Orphaned)
	}
	err := tf6server.Serve(address, func() tfprotov6.ProviderServer {
		return releaseRequestContexts(newServer())
	}, opts...)
	stopProfile()
	if err != nil {
		log.Fatal(err)
	}
	if hooks.ShutDown != nil {
		hooks.ShutDown()
	}
}

// Hooks are what a provider does as its process ends.
type Hooks struct {
	// ShutDown runs when Terraform has shut the provider down, its run
	// over.
	ShutDown func()
	// Orphaned runs when Terraform is gone without shutting the provider
	// down (killed), before the process exits.
	Orphaned func()
}

// providerLogVariable is the variable terraform-plugin-go reads the level of
// the provider's own logs (tflog) from: TF_LOG_PROVIDER_ and the type name
// in capitals, dashes as underscores.
func providerLogVariable(address string) string {
	name := address[strings.LastIndex(address, "/")+1:]
	return "TF_LOG_PROVIDER_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}
