package serve

import (
	"os"
	"time"
)

// orphanCheckInterval is how often the provider checks that Terraform still
// runs.
const orphanCheckInterval = time.Second

// exitWhenOrphaned ends the provider once the process that started it
// (Terraform) is gone, e.g. killed with SIGKILL: go-plugin keeps serving a
// host that will never come back, and a provider that does not log (see
// quietUnlessLogged) would not even die of a write to Terraform's closed
// stderr. On Unix an orphan is re-parented, so its parent pid changes;
// elsewhere the check never fires.
//
// before runs first: what is under way may still have to be recorded.
func exitWhenOrphaned(before func()) {
	parent := os.Getppid()
	if parent <= 1 {
		return // started by init itself: nothing to watch
	}
	go func() {
		for range time.Tick(orphanCheckInterval) {
			if os.Getppid() != parent {
				if before != nil {
					before()
				}
				os.Exit(1)
			}
		}
	}()
}
