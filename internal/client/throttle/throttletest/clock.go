// Package throttletest holds a fake throttle.Clock for the tests of the
// throttle and of the client that paces through it.
package throttletest

import (
	"context"
	"sync"
	"time"
)

// Clock records the waits it is asked for. With advance set, Sleep moves
// time on at once; otherwise time stands still until the test calls Add.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	advance bool
	sleeps  []time.Duration
	onSleep func()
}

// NewClock returns a clock at 2025-01-01 00:00 UTC.
func NewClock(advance bool) *Clock {
	return &Clock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), advance: advance}
}

// Now is the clock's time.
func (f *Clock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Sleep records d, and moves time on by d when the clock advances.
func (f *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	f.sleeps = append(f.sleeps, d)
	if f.advance {
		f.now = f.now.Add(d)
	}
	hook := f.onSleep
	f.onSleep = nil
	f.mu.Unlock()
	if hook != nil {
		hook()
	}
	return nil
}

// OnNextSleep runs hook once, during the next Sleep.
func (f *Clock) OnNextSleep(hook func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.onSleep = hook
}

// Add moves time on by d.
func (f *Clock) Add(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// Sleeps returns the waits asked for so far.
func (f *Clock) Sleeps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}
