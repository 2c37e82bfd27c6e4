//go:build benchprofile

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// profileDirVariable names the directory where a benchprofile build (make
// bench with BENCH_PROFILE=1) writes each process's CPU profile.
const profileDirVariable = "BENCH_PROFILE_DIR"

// init starts the CPU profile when profileDirVariable is set; stopProfile
// writes it.
func init() {
	dir := os.Getenv(profileDirVariable)
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu.%d.pprof", os.Getpid()))) //nolint:gosec // the benchmark names the directory
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		_ = f.Close()
		return
	}
	stopProfile = func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
