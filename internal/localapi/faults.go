package localapi

import (
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"
)

// faultState is the current Faults with their random source.
type faultState struct {
	Faults
	mu  sync.Mutex
	rng *rand.Rand
}

// SetFaults changes the injected faults of a running server; shares are
// clamped to [0, 1].
func (s *Server) SetFaults(f Faults) {
	for _, p := range []*float64{&f.Rate429, &f.Rate502, &f.Rate503, &f.ResetRate} {
		*p = min(max(*p, 0), 1)
	}
	seed := f.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	s.faults.Store(&faultState{Faults: f, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))})
}

// CurrentFaults returns the faults in effect.
func (s *Server) CurrentFaults() Faults { return s.faults.Load().Faults }

func (fs *faultState) draw() float64 {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.rng.Float64()
}

// shuffle orders n items at random, drawn from the faults' source: the
// same for the same Faults.Seed and requests.
func (fs *faultState) shuffle(n int, swap func(i, j int)) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.rng.Shuffle(n, swap)
}

// injectFault adds latency and, for a drawn share of requests, answers a
// fault instead of handling the request. It runs before anything else, so
// a faulted request has no effect. It reports whether it answered.
func (s *Server) injectFault(w http.ResponseWriter, r *http.Request) bool {
	fs := s.faults.Load()
	if fs.Latency > 0 {
		t := time.NewTimer(fs.Latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return true // the client is gone: nothing to answer
		}
	}
	if fs.ResetRate+fs.Rate429+fs.Rate502+fs.Rate503 == 0 {
		return false
	}
	x := fs.draw()
	var e *apiError
	switch {
	case x < fs.ResetRate:
		s.counters.add(counterFaulted)
		s.counters.add(counterFaultReset)
		resetConnection(w)
		return true
	case x < fs.ResetRate+fs.Rate429:
		s.counters.add(counterFault429)
		e = errThrottled(1)
	case x < fs.ResetRate+fs.Rate429+fs.Rate502:
		s.counters.add(counterFault502)
		e = &apiError{Status: http.StatusBadGateway, Type: "server_error", Code: "bad_gateway", Detail: "Bad Gateway"}
	case x < fs.ResetRate+fs.Rate429+fs.Rate502+fs.Rate503:
		s.counters.add(counterFault503)
		e = &apiError{Status: http.StatusServiceUnavailable, Type: "server_error", Code: "service_unavailable",
			Detail: "Service Unavailable", RetryAfter: 1}
	default:
		return false
	}
	s.counters.add(counterFaulted)
	writeError(w, e)
	return true
}

// resetConnection drops the connection without an answer; on TCP with
// SO_LINGER 0, so the client sees a reset rather than a clean close.
func resetConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler) // HTTP/2: abort the stream instead
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}
