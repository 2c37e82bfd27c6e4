package client

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// clock is the time source of the throttle, replaced in tests.
type clock interface {
	Now() time.Time
	// Sleep waits d or until ctx is done, whichever comes first.
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
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

// throttle paces every request of one client and holds them all while the
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
type throttle struct {
	clock clock
	// ceiling is the configured pace (tokens per second) and maxBurst its
	// burst; step is the additive increase and the lowest pace.
	ceiling  rate.Limit
	maxBurst int
	step     rate.Limit
	// waitMin and waitMax bound the pause of a 429 without Retry-After.
	waitMin, waitMax time.Duration

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

func newThrottle(perMinute int, waitMin, waitMax time.Duration, clk clock) *throttle {
	t := &throttle{clock: clk, waitMin: waitMin, waitMax: waitMax}
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

// pause describes a pause that began, for its log line.
type pause struct {
	wait  time.Duration
	until time.Time
	// perMinute is the pace after the pause; 0 when nothing is paced.
	perMinute float64
	// ceiling is the configured pace, per minute.
	ceiling float64
}

// describe is the log line of a pause that began with a 429 to method path.
func (p pause) describe(method, path string) string {
	msg := fmt.Sprintf("the service throttled %s %s (429): every request of this client pauses for %s, until %s",
		method, path, roundWait(p.wait), p.until.UTC().Format("15:04:05 UTC"))
	if p.perMinute == 0 {
		return msg + "; requests are not paced after it (requests_per_minute 0)"
	}
	return msg + fmt.Sprintf("; then at most %.0f requests/minute, rising back to %.0f while requests succeed", p.perMinute, p.ceiling)
}

// wait blocks until the caller may send one request: after the gate opens
// and the pace allows it. When the gate opens after deadline it returns a
// *ThrottledError at once, and when the pace would keep the request past
// deadline a *paceError (zero deadline: none). onPace is called before a
// wait for the pace, with its length.
func (t *throttle) wait(ctx context.Context, deadline time.Time, onPace func(time.Duration)) error {
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
				return &ThrottledError{Until: resume, Wait: resume.Sub(now), Left: deadline.Sub(now)}
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
			return &paceError{wait: d, perMinute: float64(pace.Limit()) * 60, left: deadline.Sub(now)}
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

// now is the throttle's clock, for the send times passed to throttled and
// answered.
func (t *throttle) now() time.Time { return t.clock.Now() }

// throttled records a 429 for a request sent at sentAt; retryAfter is the
// answer's Retry-After (ok false when it had none). It reports the pause
// when this 429 began one (the caller logs it), and not when the request was
// sent before the current pause began.
func (t *throttle) throttled(sentAt time.Time, retryAfter time.Duration, ok bool) (pause, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.clock.Now()
	began := !sentAt.Before(t.pausedAt)
	if !ok {
		streak := t.streak
		if !began {
			streak = max(0, streak-1)
		}
		retryAfter = backoff(t.waitMin, t.waitMax, streak, nil)
	}
	if until := now.Add(retryAfter); until.After(t.resumeAt) {
		t.resumeAt = until
	}
	if !began {
		return pause{}, false
	}
	t.pausedAt = now
	t.streak++
	p := pause{wait: t.resumeAt.Sub(now), until: t.resumeAt, ceiling: float64(t.ceiling) * 60}
	if t.pace != nil {
		slower := max(t.step, t.pace.Limit()*decreaseRatio)
		t.pace = rate.NewLimiter(slower, 1)
		p.perMinute = float64(slower) * 60
	}
	return p, true
}

// answered records an answer that was not a 429, for a request sent at
// sentAt: the pace grows back by one step, up to the configured one.
func (t *throttle) answered(sentAt time.Time) {
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

// resumeTime is when the gate opens (in the past when it is open).
func (t *throttle) resumeTime() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.resumeAt
}

// paceError is a request not sent because the client's own pace would
// send it after its deadline. It is a context.DeadlineExceeded.
type paceError struct {
	wait, left time.Duration
	perMinute  float64
}

func (e *paceError) Error() string {
	return fmt.Sprintf("not sent: at this client's pace of %.0f requests/minute its turn comes in %s, after this operation's time limit (%s left)",
		e.perMinute, roundWait(e.wait), roundWait(e.left))
}

func (e *paceError) Unwrap() error { return context.DeadlineExceeded }

// roundWait rounds a wait for a message: whole seconds, or milliseconds
// under a second.
func roundWait(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Second)
}
