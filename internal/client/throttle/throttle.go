// Package throttle paces the requests of one API client and holds them all
// while the service throttles its key; the client tells it the answers.
package throttle

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Clock is the time source of a Throttle; tests pass throttletest.Clock.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx is done.
	Sleep(ctx context.Context, d time.Duration) error
}

// RealClock is the system clock.
type RealClock struct{}

// Now is time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits d or until ctx is done.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d): // collected once unreferenced (Go 1.23)
		return nil
	}
}

// The pace's burst is a twentieth of the requests per minute; a pause
// halves the pace, and each answer wins back a twentieth of it.
const (
	burstShare    = 20
	decreaseRatio = 0.5
	increaseShare = 20
)

// Throttle is shared by the requests of one client, so that one request's
// 429 slows all of them: a token bucket (x/time/rate) paces them, and a 429
// closes a gate until its Retry-After, which x/time/rate cannot. A pause's
// first 429 drops the burst to one, so that the held requests go out one by
// one; 429s of requests sent before it only extend it.
type Throttle struct {
	clock    Clock
	ceiling  rate.Limit                     // the configured pace, in tokens per second
	maxBurst int                            // its burst
	step     rate.Limit                     // the increase, and the lowest pace
	backoff  func(streak int) time.Duration // the pause of a 429 without Retry-After

	mu sync.Mutex
	// pace is nil when nothing is paced. A pause replaces it, forgiving the
	// tokens reserved by requests queued before it.
	pace     *rate.Limiter
	resumeAt time.Time // the gate opens
	pausedAt time.Time // the last pause began: only answers of requests sent after it count
	streak   int       // pauses since the last answer that was not a 429
}

// New returns a throttle of perMinute requests per minute (0: no pace) on
// clk; backoff gives a 429's pause without Retry-After from the pauses in a row.
func New(perMinute int, backoff func(streak int) time.Duration, clk Clock) *Throttle {
	t := &Throttle{clock: clk, backoff: backoff}
	if perMinute <= 0 {
		return t
	}
	t.maxBurst = max(1, perMinute/burstShare)
	t.ceiling = rate.Limit(float64(max(1, perMinute-t.maxBurst)) / 60) // with the burst, perMinute a minute
	t.step = t.ceiling / increaseShare
	t.pace = rate.NewLimiter(t.ceiling, t.maxBurst)
	return t
}

// Pause describes a pause that began, for its log line: the pace after it
// (0: none) and the configured one, per minute.
type Pause struct {
	Wait               time.Duration
	Until              time.Time
	PerMinute, Ceiling float64
}

// Describe is the log line of a pause that began with a 429 to method path.
func (p Pause) Describe(method, path string) string {
	msg := fmt.Sprintf("the service throttled %s %s (429): every request of this client pauses for %s, until %s",
		method, path, RoundWait(p.Wait), p.Until.UTC().Format("15:04:05 UTC"))
	if p.PerMinute == 0 {
		return msg + "; requests are not paced after it (requests_per_minute 0)"
	}
	return msg + fmt.Sprintf("; then at most %.0f requests/minute, rising back to %.0f while requests succeed", p.PerMinute, p.Ceiling)
}

// Wait blocks until the caller may send one request: the gate open and the
// pace allowing it. A gate that opens after deadline is a *ClosedError at
// once, a pace that would keep the request past it a *PaceError. onPace is
// called before a wait for the pace.
func (t *Throttle) Wait(ctx context.Context, deadline time.Time, onPace func(time.Duration)) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		now := t.clock.Now()
		t.mu.Lock()
		resume, pace := t.resumeAt, t.pace
		t.mu.Unlock()
		if now.Before(resume) {
			if !deadline.IsZero() && resume.After(deadline) {
				return &ClosedError{Until: resume, Wait: resume.Sub(now), Left: deadline.Sub(now)}
			}
			if err := t.clock.Sleep(ctx, resume.Sub(now)); err != nil {
				return err
			}
			continue // the pause may have been extended meanwhile
		}
		if pace == nil {
			return nil
		}
		r := pace.ReserveN(now, 1)
		d := r.DelayFrom(now)
		if d <= 0 {
			return nil
		}
		if !deadline.IsZero() && now.Add(d).After(deadline) {
			r.CancelAt(now)
			return &PaceError{Wait: d, PerMinute: float64(pace.Limit()) * 60, Left: deadline.Sub(now)}
		}
		if onPace != nil {
			onPace(d)
		}
		if err := t.clock.Sleep(ctx, d); err != nil {
			r.CancelAt(t.clock.Now())
			return err
		}
		t.mu.Lock()
		paused := t.clock.Now().Before(t.resumeAt) || t.pace != pace
		t.mu.Unlock()
		if !paused {
			return nil
		}
		// A pause began meanwhile: wait for the gate, and queue again.
	}
}

// Now is the throttle's clock, for the send times Throttled and Answered take.
func (t *Throttle) Now() time.Time { return t.clock.Now() }

// Throttled records a 429 for a request sent at sentAt, with the answer's
// Retry-After if ok. It returns the pause when this 429 began one.
func (t *Throttle) Throttled(sentAt time.Time, retryAfter time.Duration, ok bool) (Pause, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.clock.Now()
	began := !sentAt.Before(t.pausedAt)
	if !ok {
		streak := t.streak
		if !began {
			streak = max(0, streak-1)
		}
		retryAfter = t.backoff(streak)
	}
	if until := now.Add(retryAfter); until.After(t.resumeAt) {
		t.resumeAt = until
	}
	if !began {
		return Pause{}, false
	}
	t.pausedAt = now
	t.streak++
	p := Pause{Wait: t.resumeAt.Sub(now), Until: t.resumeAt, Ceiling: float64(t.ceiling) * 60}
	if t.pace != nil {
		slower := max(t.step, t.pace.Limit()*decreaseRatio)
		t.pace = rate.NewLimiter(slower, 1)
		p.PerMinute = float64(slower) * 60
	}
	return p, true
}

// Answered records an answer that was not a 429, for a request sent at
// sentAt: the pace grows back one step.
func (t *Throttle) Answered(sentAt time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if sentAt.Before(t.pausedAt) {
		return
	}
	t.streak = 0
	if t.pace == nil || t.pace.Limit() >= t.ceiling {
		return
	}
	next := min(t.ceiling, t.pace.Limit()+t.step)
	now := t.clock.Now()
	t.pace.SetLimitAt(now, next)
	t.pace.SetBurstAt(now, max(1, int(float64(t.maxBurst)*float64(next/t.ceiling))))
}

// ResumeTime is when the gate opens (in the past when it is open).
func (t *Throttle) ResumeTime() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.resumeAt
}

// PaceError is a request not sent because the client's own pace would send
// it after its deadline; it is a context.DeadlineExceeded.
type PaceError struct {
	Wait, Left time.Duration
	PerMinute  float64
}

func (e *PaceError) Error() string {
	return fmt.Sprintf("not sent: at this client's pace of %.0f requests/minute its turn comes in %s, after this operation's time limit (%s left)",
		e.PerMinute, RoundWait(e.Wait), RoundWait(e.Left))
}

func (e *PaceError) Unwrap() error { return context.DeadlineExceeded }

// RoundWait rounds a wait for a message: to seconds, or milliseconds under one.
func RoundWait(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Second)
}

// ClosedError is a request held back by a pause that ends (Until, in Wait)
// after its deadline (in Left).
type ClosedError struct {
	Until      time.Time
	Wait, Left time.Duration
}

func (e *ClosedError) Error() string {
	return fmt.Sprintf("throttled: requests resume in %s, after this operation's time limit (%s left)", RoundWait(e.Wait), RoundWait(max(0, e.Left)))
}
