package client

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// AttemptTimeoutError is an attempt the service did not answer, or finish
// answering, within Config.RequestTimeout; it is a context.DeadlineExceeded.
type AttemptTimeoutError struct{ Timeout time.Duration }

func (e *AttemptTimeoutError) Error() string {
	return fmt.Sprintf("no answer within %s, the request_timeout of one attempt", e.Timeout)
}

// Unwrap makes it a context.DeadlineExceeded.
func (e *AttemptTimeoutError) Unwrap() error { return context.DeadlineExceeded }

// silentAfter is how many attempts in a row the service may leave
// unanswered before the client sends no more: a host that accepts and
// never answers would hold every request of the run for as long again.
const silentAfter = 2

// silentHost counts the attempts in a row that got no answer within the
// request timeout; any answer starts it again.
type silentHost struct{ unanswered atomic.Int32 }

// SilentHostError is a request not sent because the service answered none
// of the last attempts of the run.
type SilentHostError struct {
	Host     string
	Attempts int
	Timeout  time.Duration
}

func (e *SilentHostError) Error() string {
	return fmt.Sprintf("not sent: %q answered none of the last %d requests within %s each (request_timeout), "+
		"so this run sends it no more", e.Host, e.Attempts, e.Timeout)
}

// refuse returns the error of an attempt not to send, or nil.
func (s *silentHost) refuse(host string, timeout time.Duration) error {
	if n := s.unanswered.Load(); n >= silentAfter {
		return &SilentHostError{Host: host, Attempts: int(n), Timeout: timeout}
	}
	return nil
}

// ended counts an attempt's outcome: an answer, or a failure err.
func (s *silentHost) ended(err error) {
	switch {
	case err == nil:
		s.unanswered.Store(0)
	case isA[*AttemptTimeoutError](err):
		s.unanswered.Add(1)
	}
}
