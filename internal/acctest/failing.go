package acctest

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// ExpectFailure runs run, a test made to fail (e.g. resource.Test of a
// TestCase with a step that fails), with a recorder in t's place, and
// returns the failures it reported, so that t can judge what the failed
// test left behind. t fails when run passes, and is skipped when run is.
func ExpectFailure(t *testing.T, run func(TestT)) []string {
	t.Helper()
	r := &recorder{t: t}
	done := make(chan struct{})
	// A goroutine of its own: FailNow ends it as the testing package ends
	// a test's, running its deferred calls (the post-test destroy).
	go func() {
		defer close(done)
		run(r)
	}()
	<-done
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.skipped != "":
		t.Skip(r.skipped)
	case !r.failed:
		t.Fatal("the test made to fail passed")
	}
	return r.failures
}

// recorder is a TestT that keeps failures instead of failing.
type recorder struct {
	t        *testing.T
	mu       sync.Mutex
	failed   bool
	skipped  string
	failures []string
}

func (r *recorder) fail(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	if msg != "" {
		r.failures = append(r.failures, msg)
		r.t.Logf("the test made to fail reports: %s", msg)
	}
}

func (r *recorder) Cleanup(f func())                  { r.t.Cleanup(f) }
func (r *recorder) Error(args ...any)                 { r.fail(fmt.Sprint(args...)) }
func (r *recorder) Errorf(format string, args ...any) { r.fail(fmt.Sprintf(format, args...)) }
func (r *recorder) Fail()                             { r.fail("") }
func (r *recorder) FailNow()                          { r.fail(""); runtime.Goexit() }
func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}
func (r *recorder) Fatal(args ...any) { r.fail(fmt.Sprint(args...)); runtime.Goexit() }
func (r *recorder) Fatalf(format string, args ...any) {
	r.fail(fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (r *recorder) Helper()                          {}
func (r *recorder) Log(args ...any)                  { r.t.Log(args...) }
func (r *recorder) Logf(format string, args ...any)  { r.t.Logf(format, args...) }
func (r *recorder) Name() string                     { return r.t.Name() }
func (r *recorder) Parallel()                        {}
func (r *recorder) Skip(args ...any)                 { r.skip(fmt.Sprint(args...)) }
func (r *recorder) SkipNow()                         { r.skip("skipped") }
func (r *recorder) Skipf(format string, args ...any) { r.skip(fmt.Sprintf(format, args...)) }
func (r *recorder) Skipped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.skipped != ""
}

func (r *recorder) skip(msg string) {
	r.mu.Lock()
	r.skipped = msg
	r.mu.Unlock()
	runtime.Goexit()
}
