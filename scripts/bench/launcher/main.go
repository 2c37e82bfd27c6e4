// Command launcher stands in for the provider binary in the benchmark's
// filesystem mirror, so that the benchmark can report the provider's peak
// memory: Terraform starts it as the provider, it runs the real provider
// ($BENCH_PROVIDER_BIN) as its child with the same arguments, environment
// and standard streams (the plugin handshake passes straight through), and
// when the child exits it writes the child's getrusage to
// $BENCH_RUSAGE_DIR/<pid>.json and exits with the child's status.
//
// Reading the high-water mark from the kernel when the process ends is
// exact; sampling /proc would miss a peak between samples and cost CPU the
// timings share.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
)

func main() {
	os.Exit(run())
}

func run() int {
	bin := os.Getenv("BENCH_PROVIDER_BIN")
	if bin == "" {
		fmt.Fprintln(os.Stderr, "launcher: BENCH_PROVIDER_BIN is not set")
		return 1
	}
	cmd := exec.Command(bin, os.Args[1:]...) //nolint:gosec,noctx // the provider binary the benchmark names; it stops when Terraform stops it
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Terraform asks its plugins to stop with signals too: pass them on.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		return 1
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		return 1
	}
	if dir := os.Getenv("BENCH_RUSAGE_DIR"); dir != "" {
		if err := report(dir, cmd.ProcessState); err != nil {
			fmt.Fprintln(os.Stderr, "launcher:", err)
		}
	}
	return cmd.ProcessState.ExitCode()
}

// Usage is what the launcher reports of one provider process.
type Usage struct {
	// MaxRSSKiB is the peak resident set size (Linux reports KiB).
	MaxRSSKiB int64   `json:"max_rss_kib"`
	UserSec   float64 `json:"user_sec"`
	SysSec    float64 `json:"sys_sec"`
}

func report(dir string, ps *os.ProcessState) error {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return errors.New("no rusage on this platform")
	}
	u := Usage{MaxRSSKiB: ru.Maxrss, UserSec: ps.UserTime().Seconds(), SysSec: ps.SystemTime().Seconds()}
	b, err := json.Marshal(u)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, strconv.Itoa(ps.Pid())+".json"), b, 0o600) //nolint:gosec // the benchmark's own scratch directory
}
