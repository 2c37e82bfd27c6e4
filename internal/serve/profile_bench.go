//go:build benchprofile

package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// profileDirVariable names the directory where a provider built with the
// benchprofile tag (make bench with BENCH_PROFILE=1) writes the CPU profile
// of each of its processes, as cpu.PID.pprof.
const profileDirVariable = "BENCH_PROFILE_DIR"

// startProfile starts profiling the process's CPU when profileDirVariable
// is set; stop writes the profile. Released providers are built without the
// tag and never profile.
func startProfile() (stop func()) {
	dir := os.Getenv(profileDirVariable)
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu.%d.pprof", os.Getpid()))) //nolint:gosec // the benchmark names the directory
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
