//go:build unix

package createonce

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes the exclusive lock of f without waiting, and reports
// whether it has it. The lock dies with the process that holds it.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) //nolint:gosec // G115: a file descriptor fits an int
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
