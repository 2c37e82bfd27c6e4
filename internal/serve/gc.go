package serve

import (
	"os"
	"runtime/debug"
)

// gcPercent is the garbage collector's target (GOGC) unless GOGC says
// otherwise. The provider keeps little alive between requests, a few MiB,
// but every request of a large plan allocates short-lived values
// (terraform-plugin-framework converts each record between its wire, schema
// and model forms several times), so at Go's default of 100 the collector
// ran every few MiB and took about an eighth of the provider's CPU in a
// no-change plan of 1,000 records. At 200 it runs half as often, for about
// 10 MiB more peak memory there (scripts/bench).
const gcPercent = 200

// tuneGC sets the collector's target to gcPercent when the environment
// does not set GOGC.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}
