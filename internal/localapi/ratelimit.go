package localapi

import (
	"math"
	"sync"
	"time"
)

// rateLimiter allows each key limit requests in any sliding window, like
// the live service's per-key throttle (a log of recent request times).
type rateLimiter struct {
	limit  int
	window time.Duration
	mu     sync.Mutex
	hits   map[string][]time.Time
}

// SetRateLimit changes the per-key limit of requests per minute of a
// running server; 0 turns rate limiting off. Counts start afresh.
func (s *Server) SetRateLimit(perMinute int) {
	if perMinute <= 0 {
		s.limiter.Store(nil)
		return
	}
	s.limiter.Store(&rateLimiter{limit: perMinute, window: time.Minute, hits: map[string][]time.Time{}})
}

// allow records a request by key at now, or says how long until one more
// is allowed.
func (l *rateLimiter) allow(key string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.hits[key]
	cut := 0
	for cut < len(h) && now.Sub(h[cut]) >= l.window {
		cut++
	}
	h = h[cut:]
	if len(h) >= l.limit {
		l.hits[key] = h
		return h[0].Add(l.window).Sub(now), false
	}
	l.hits[key] = append(h, now)
	return 0, true
}

// throttle applies the rate limit to an authenticated, permitted request.
func (s *Server) throttle(k *key) *apiError {
	l := s.limiter.Load()
	if l == nil {
		return nil
	}
	wait, ok := l.allow(k.Key, time.Now())
	if ok {
		return nil
	}
	s.counters.add(counterThrottled)
	return errThrottled(max(1, int(math.Ceil(wait.Seconds()))))
}
