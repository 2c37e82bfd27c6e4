// Command terraform-provider-pipeline is the Terraform provider for the
// pipeline config records (transformation and import-app configs) of a
// PostHog-style service.
package main

import (
	"flag"
	"log"
	"os"
	"runtime/debug"

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

// gcPercent is the garbage collector's target unless GOGC says otherwise:
// every request allocates many short-lived values, and at 200 the per-record
// benchmarks ran 15% to 20% faster for about 10 MiB more (DESIGN.md).
const gcPercent = 200

func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}

// quietUnlessLogged turns the plugin libraries' and the provider's logs off
// when Terraform would drop them (neither TF_LOG nor TF_LOG_PROVIDER set),
// keeping levels set explicitly: TRACE logs cost a third of a plan's CPU,
// and writing them to a killed Terraform's stderr kills the provider before
// its creates reach the journal (TestAccReliability_interruptedApply).
func quietUnlessLogged() {
	if os.Getenv("TF_LOG") != "" || os.Getenv("TF_LOG_PROVIDER") != "" {
		return
	}
	for _, env := range []string{
		"TF_LOG_SDK",               // terraform-plugin-go's root logger
		"TF_LOG_SDK_PROTO",         // its protocol subsystem
		"TF_LOG_SDK_FRAMEWORK",     // terraform-plugin-framework
		"TF_LOG_PROVIDER_PIPELINE", // tflog in the provider (TF_LOG_PROVIDER_ and the type name)
	} {
		if _, set := os.LookupEnv(env); !set {
			_ = os.Setenv(env, "OFF")
		}
	}
}
