package localapi

import "sync/atomic"

// Counter names besides the operations (list, create, retrieve, update,
// delete, frontend, job, rearrange, other).
const (
	counterTotal      = "total"
	counterThrottled  = "throttled"
	counterFaulted    = "faulted"
	counterFault429   = "fault_429"
	counterFault502   = "fault_502"
	counterFault503   = "fault_503"
	counterFaultReset = "fault_reset"
)

var counterNames = []string{
	opList, opCreate, opRetrieve, opUpdate, opDelete, opFrontend, opJob, opRearrange, opOther,
	counterTotal, counterThrottled, counterFaulted, counterFault429, counterFault502, counterFault503, counterFaultReset,
}

// counters count requests per operation, lock-free. The set of names is
// fixed at start, so the map is only ever read.
type counters struct {
	vals map[string]*atomic.Int64
}

func newCounters() *counters {
	c := &counters{vals: make(map[string]*atomic.Int64, len(counterNames))}
	for _, n := range counterNames {
		c.vals[n] = new(atomic.Int64)
	}
	return c
}

// request counts one API request of operation op.
func (c *counters) request(op string) {
	c.vals[op].Add(1)
	c.vals[counterTotal].Add(1)
}

func (c *counters) add(name string) { c.vals[name].Add(1) }

// Counters returns the request counts: one per operation (list, create,
// retrieve, update, delete, frontend, job, rearrange, and other for unknown
// paths and methods), total, throttled (rate limit answers), faulted (every
// injected fault) and fault_429, fault_502, fault_503, fault_reset. Every
// request is counted under its operation, faulted or throttled ones too.
func (s *Server) Counters() map[string]int64 {
	out := make(map[string]int64, len(s.counters.vals))
	for n, v := range s.counters.vals {
		out[n] = v.Load()
	}
	return out
}

// ResetCounters sets every counter to zero.
func (s *Server) ResetCounters() {
	for _, v := range s.counters.vals {
		v.Store(0)
	}
}
