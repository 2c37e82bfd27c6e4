//go:build windows

package createonce

import "os"

// processAlive reports whether a process with the id runs: on Windows
// FindProcess fails for one that does not.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
