//go:build !windows

package createonce

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with the id runs (signal 0 only
// checks).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
