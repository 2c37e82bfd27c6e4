// Package throttle paces the requests of one API client and holds them all
// while the service throttles its key: a token bucket for the configured
// requests per minute, a gate that stays closed until a 429's Retry-After,
// and the pace halved on a pause and won back answer by answer. It knows
// nothing of HTTP; the client tells it what the service answered.
package throttle

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Clock is the time source of a Throttle; tests pass a fake one
// (throttletest.Clock).
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx is done, whichever comes first.
	Sleep(ctx context.Context, d time.Duration) error
}

// RealClock is the system clock.
type RealClock struct{}

// Now is time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits d or until ctx is done.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Shape of the pace: a burst of a twentieth of the configured requests per
// minute, the rest earned over the minute; after a throttled answer half
// the pace, won back a twentieth of the configured pace per answer that is
// not throttled.
const (
	burstShare    = 20
	decreaseRatio = 0.5
	increaseShare = 20
)

// Throttle paces every request of one client and holds them all while the
// service throttles the key. It is shared by the client's requests, so what
// one request learns (a 429) slows all of them:
//
//   - Pacing is a token bucket (golang.org/x/time/rate) holding a burst of a
//     twentieth of RequestsPerMinute and earning the rest over the minute,
//     so no 60-second window sees more than RequestsPerMinute requests.
//   - A 429 closes a gate until its Retry-After: no request of the client is
//     sent before then (requests already in flight are not recalled). The
//     first 429 of a pause also halves the pace and drops the burst to one,
//     so the requests that waited go out one by one, not all at once
//     (multiplicative decrease); 429s of requests sent before that pause
//     began only extend it.
//   - Each answer that is not a 429 wins back a twentieth of the configured
//     pace, never more than it, and the burst grows with the pace (additive
//     increase).
//
// x/time/rate has no gate that opens at a given time, hence resumeAt. With
// RequestsPerMinute 0 nothing is paced, but 429s still close the gate.
type Throttle struct {
	clock Clock
	// ceiling is the configured pace (tokens per second) and maxBurst its
	// burst; step is the additive increase and the lowest pace.
	ceiling  rate.Limit
	maxBurst int
	step     rate.Limit
	// backoff is the pause of a 429 without Retry-After, growing with the
	// number of pauses in a row.
	backoff func(streak int) time.Duration

	mu sync.Mutex
	// pace is nil when nothing is paced (RequestsPerMinute 0). A pause
	// replaces it with a new bucket, which forgives the tokens reserved by
	// requests that queued before the pause.
	pace *rate.Limiter
	// resumeAt is when the gate opens; no request is sent before it.
	resumeAt time.Time
	// pausedAt is when the last pause began. A 429 of a request sent before
	// it belongs to that pause, and only answers of requests sent after it
	// win pace back.
	pausedAt time.Time
	// streak counts the pauses since the last answer that was not a 429.
	streak int
}

// New returns a throttle of perMinute requests per minute (0: no pace) on
// clk. backoff gives the pause of a 429 without Retry-After from the number
// of pauses before it in a row.
func New(perMinute int, backoff func(streak int) time.Duration, clk Clock) *Throttle {
	t := &Throttle{clock: clk, backoff: backoff}
	if perMinute <= 0 {
		return t
	}
	burst := max(1, perMinute/burstShare)
	refill := max(1, perMinute-burst)
	t.ceiling = rate.Limit(float64(refill) / 60)
	t.maxBurst = burst
	t.step = t.ceiling / increaseShare
	t.pace = rate.NewLimiter(t.ceiling, burst)
	return t
}

// Pause describes a pause that began, for its log line.
type Pause struct {
	Wait  time.Duration
	Until time.Time
	// PerMinute is the pace after the pause; 0 when nothing is paced.
	PerMinute float64
	// Ceiling is the configured pace, per minute.
	Ceiling float64
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

// Wait blocks until the caller may send one request: after the gate opens
// and the pace allows it. When the gate opens after deadline it returns a
// *ClosedError at once, and when the pace would keep the request past
// deadline a *PaceError (zero deadline: none). onPace is called before a
// wait for the pace, with its length.
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
		// A pause began while this request waited for its turn: it waits
		// for the gate, if still closed, and queues again at the new pace.
	}
}

// Now is the throttle's clock, for the send times passed to Throttled and
// Answered.
func (t *Throttle) Now() time.Time { return t.clock.Now() }

// Throttled records a 429 for a request sent at sentAt; retryAfter is the
// answer's Retry-After (ok false when it had none). It reports the pause
// when this 429 began one (the caller logs it), and not when the request was
// sent before the current pause began.
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
// sentAt: the pace grows back by one step, up to the configured one.
func (t *Throttle) Answered(sentAt time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if sentAt.Before(t.pausedAt) {
		return // sent before the last pause: says nothing of the pace since
	}
	t.streak = 0
	if t.pace == nil {
		return
	}
	cur := t.pace.Limit()
	if cur >= t.ceiling {
		return
	}
	next := min(t.ceiling, cur+t.step)
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

// PaceError is a request not sent because the client's own pace would
// send it after its deadline. It is a context.DeadlineExceeded.
type PaceError struct {
	Wait, Left time.Duration
	PerMinute  float64
}

func (e *PaceError) Error() string {
	return fmt.Sprintf("not sent: at this client's pace of %.0f requests/minute its turn comes in %s, after this operation's time limit (%s left)",
		e.PerMinute, RoundWait(e.Wait), RoundWait(e.Left))
}

func (e *PaceError) Unwrap() error { return context.DeadlineExceeded }

// RoundWait rounds a wait for a message: whole seconds, or milliseconds
// under a second.
func RoundWait(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Second)
}

// ClosedError is a request held back by a pause that ends after its
// deadline: Until is when the gate opens, Wait how long that is from now
// and Left the time the deadline left.
type ClosedError struct {
	Until      time.Time
	Wait, Left time.Duration
}

func (e *ClosedError) Error() string {
	return fmt.Sprintf("throttled: requests resume in %s, after this operation's time limit (%s left)", RoundWait(e.Wait), RoundWait(max(0, e.Left)))
}
