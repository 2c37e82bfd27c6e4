package acceptance

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// A parent that never reaps the processes it inherits, as many container
// init processes are: the test binary, run again with noReapEnv set to the
// command (a JSON list), makes itself the subreaper of what the command
// starts, writes the command's pid to noReapPIDEnv's file, waits for the
// command alone, and then sleeps until killed. Processes the command leaves
// behind (a provider whose Terraform was killed) end as zombies that keep
// their pid.
const (
	noReapEnv           = "PIPELINE_TEST_NO_REAP"
	noReapPIDEnv        = "PIPELINE_TEST_NO_REAP_PID"
	prSetChildSubreaper = 36
)

// noReapSupported: the subreaper is Linux's.
const noReapSupported = true

func runNoReap() {
	var argv []string
	if err := json.Unmarshal([]byte(os.Getenv(noReapEnv)), &argv); err != nil || len(argv) == 0 {
		os.Exit(2)
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		os.Exit(3)
	}
	cmd := exec.CommandContext(context.Background(), argv[0], argv[1:]...) //nolint:gosec // G204: the test's own terraform command
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		os.Exit(4)
	}
	_ = os.WriteFile(os.Getenv(noReapPIDEnv), []byte(strconv.Itoa(cmd.Process.Pid)), 0o600) //nolint:gosec // G703: the test's own file
	_ = cmd.Wait()
	for {
		time.Sleep(time.Hour)
	}
}
