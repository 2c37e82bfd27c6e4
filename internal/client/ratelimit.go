package client

import (
	"context"
	"sync"
	"time"
)

// clock is the time source of the rate limiter, replaced in tests.
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

// limiter is a token bucket that keeps a client under a per-minute request
// budget such as the live service's 480 requests per minute per key.
//
// It holds burst tokens and earns perMinute-burst more per minute, so no
// 60-second window ever sees more than perMinute requests (a server that
// counts requests in a sliding minute never throttles), while short bursts
// such as a small plan's reads go out at once.
type limiter struct {
	clock    clock
	interval time.Duration // time to earn one token
	burst    float64

	mu     sync.Mutex
	tokens float64 // negative while callers wait for tokens reserved ahead
	last   time.Time
}

func newLimiter(perMinute int, clk clock) *limiter {
	burst := perMinute / 20
	if burst < 1 {
		burst = 1
	}
	refill := perMinute - burst
	if refill < 1 {
		refill = 1
	}
	return &limiter{
		clock:    clk,
		interval: time.Minute / time.Duration(refill),
		burst:    float64(burst),
		tokens:   float64(burst),
		last:     clk.Now(),
	}
}

// reserve takes a token and returns how long the caller must wait before
// using it. Tokens are reserved in call order, so waiters are served FIFO.
func (l *limiter) reserve() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	if elapsed := now.Sub(l.last); elapsed > 0 {
		l.tokens += float64(elapsed) / float64(l.interval)
		if l.tokens > l.burst {
			l.tokens = l.burst
		}
		l.last = now
	}
	l.tokens--
	if l.tokens >= 0 {
		return 0
	}
	return time.Duration(-l.tokens * float64(l.interval))
}

// release gives back a reserved token that was not used.
func (l *limiter) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tokens++
	if l.tokens > l.burst {
		l.tokens = l.burst
	}
}

// wait blocks until the caller may send one request, or ctx is done.
// onWait is called before a wait, with its length.
func (l *limiter) wait(ctx context.Context, onWait func(time.Duration)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d := l.reserve()
	if d <= 0 {
		return nil
	}
	if onWait != nil {
		onWait(d)
	}
	if err := l.clock.Sleep(ctx, d); err != nil {
		l.release()
		return err
	}
	return nil
}
