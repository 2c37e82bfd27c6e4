package localapitest

import (
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
)

// Loss is what becomes of the answer to one request.
type Loss int

// The losses LoseAnswers can inflict, after the request was handled.
const (
	// Keep delivers the answer.
	Keep Loss = iota
	// Lose502 replaces the answer with a proxy's 502 Bad Gateway.
	Lose502
	// Lose504 replaces the answer with a proxy's 504 Gateway Timeout.
	Lose504
	// LoseReset resets the connection instead of answering.
	LoseReset
)

// LoseAnswers wraps h so that, for the requests decide picks, the request
// is handled (a write commits) and then its answer is lost on the way back:
// the failure a client cannot tell from one that came before the write.
// The local API's own faults (localapi.Faults) all come before the
// request is handled; this is the other half.
func LoseAnswers(h http.Handler, decide func(*http.Request) Loss) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		loss := decide(r)
		if loss == Keep {
			h.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(httptest.NewRecorder(), r) // done, and the answer dropped
		switch loss {
		case Lose502:
			http.Error(w, "<html><body><h1>502 Bad Gateway</h1></body></html>", http.StatusBadGateway)
		case Lose504:
			http.Error(w, "<html><body><h1>504 Gateway Time-out</h1></body></html>", http.StatusGatewayTimeout)
		default:
			reset(w)
		}
	})
}

// reset drops the connection without an answer (SO_LINGER 0: the client
// sees a reset, not a clean close).
func reset(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
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

// RandomLoss loses the answers of a share of the requests with one of the
// given methods (every method when none), spread evenly over 502, 504 and
// reset; seed 0 picks a random seed. Lost counts them. It is safe for
// concurrent use.
func RandomLoss(share float64, seed uint64, methods ...string) *Losses {
	if seed == 0 {
		seed = rand.Uint64()
	}
	return &Losses{share: share, methods: methods, rng: rand.New(rand.NewPCG(seed, seed+1))}
}

// Losses decides which answers to lose; see RandomLoss.
type Losses struct {
	share   float64
	methods []string
	mu      sync.Mutex
	rng     *rand.Rand
	lost    atomic.Int64
}

// Decide is the decide function of LoseAnswers.
func (l *Losses) Decide(r *http.Request) Loss {
	if len(l.methods) > 0 && !slices.Contains(l.methods, r.Method) {
		return Keep
	}
	l.mu.Lock()
	x, kind := l.rng.Float64(), l.rng.IntN(3)
	l.mu.Unlock()
	if x >= l.share {
		return Keep
	}
	l.lost.Add(1)
	return []Loss{Lose502, Lose504, LoseReset}[kind]
}

// Lost is how many answers were lost so far.
func (l *Losses) Lost() int64 { return l.lost.Load() }
