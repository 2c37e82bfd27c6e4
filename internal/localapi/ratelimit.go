package localapi

import (
	"math"
	"sync"
	"time"
)

// rateLimiter allows each key limit requests in any sliding window, like
// one of the live service's per-key throttles (a log of recent request
// times, as DRF keeps it).
type rateLimiter struct {
	limit  int
	window time.Duration
	mu     sync.Mutex
	hits   map[string][]time.Time
}

func newRateLimiter(limit int, window time.Duration) *rateLimiter {
	if limit <= 0 {
		return nil
	}
	return &rateLimiter{limit: limit, window: window, hits: map[string][]time.Time{}}
}

// SetRateLimit changes the per-key limit of requests per minute (the live
// service's burst limit) of a running server; 0 turns it off. Its counts
// start afresh.
func (s *Server) SetRateLimit(perMinute int) {
	s.minuteLimiter.Store(newRateLimiter(perMinute, time.Minute))
}

// SetHourlyRateLimit changes the per-key limit of requests per hour (the
// live service's sustained limit) of a running server; 0 turns it off. Its
// counts start afresh.
func (s *Server) SetHourlyRateLimit(perHour int) {
	s.hourLimiter.Store(newRateLimiter(perHour, time.Hour))
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

// throttle applies the rate limits to an authenticated, permitted request.
// As DRF does with a view's throttles, every limit is asked: each one that
// allows the request counts it, also when another refuses it, and the
// answer asks for the longest wait of those that refuse.
func (s *Server) throttle(k *key) *apiError {
	now := time.Now()
	var wait time.Duration
	refused := false
	for _, l := range []*rateLimiter{s.minuteLimiter.Load(), s.hourLimiter.Load()} {
		if l == nil {
			continue
		}
		if w, ok := l.allow(k.Key, now); !ok {
			refused = true
			wait = max(wait, w)
		}
	}
	if !refused {
		return nil
	}
	s.counters.add(counterThrottled)
	return errThrottled(max(1, int(math.Ceil(wait.Seconds()))))
}
