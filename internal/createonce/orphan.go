package createonce

import (
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Whether Terraform, which started this provider, is gone: a config whose
// answer arrives after that reaches no state, which makes it a killed run's
// orphan that a later create may adopt (DESIGN.md, "Create recovery adopts
// only a killed run's orphan").

// watchedParent is Terraform's pid once Orphaned watches it.
var watchedParent atomic.Int64

// Orphaned starts watching Terraform, the parent, on its first call, and
// returns a channel closed once Terraform is gone (killed), where go-plugin
// would serve on, and the creates under way have recorded what they made
// (at most stopGrace and 5 seconds later). The provider then exits without
// Finish, so that its journal keeps the orphans for the next run. Only Unix
// re-parents an orphan; the channel is nil, never closed, when there is no
// parent to watch.
func Orphaned() <-chan struct{} { return watchParent() }

var watchParent = sync.OnceValue(func() <-chan struct{} {
	parent := os.Getppid()
	if parent <= 1 {
		return nil // started by init itself: nothing to watch
	}
	watchedParent.Store(int64(parent))
	gone := make(chan struct{})
	go func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for range tick.C {
			if parentGone() {
				done := make(chan struct{})
				go func() { inFlight.Wait(); close(done) }()
				select {
				case <-done:
				case <-time.After(stopGrace + 5*time.Second):
				}
				close(gone)
				return
			}
		}
	}()
	return gone
})

// parentGone reports whether the watched Terraform has ended: Unix gives
// its children to another parent as it exits, before it is reaped.
func parentGone() bool {
	p := watchedParent.Load()
	return p > 1 && int64(os.Getppid()) != p
}

// orphaned holds the journal directories whose Terraform a test killed.
var orphaned sync.Map // dir -> true

// Orphan plays, for the provider instances of journal directory dir, the
// end of the Terraform that runs them: what they hand over from now on
// reaches no state. Release ends it. Tests use it, as they use Release.
func Orphan(dir string) { orphaned.Store(dir, true) }

// terraformGone reports whether the Terraform of j's provider is gone.
func (j *journal) terraformGone() bool {
	_, gone := orphaned.Load(j.dir)
	return gone || parentGone()
}
