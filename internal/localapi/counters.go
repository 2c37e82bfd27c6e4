package localapi

import "sync/atomic"

// Counter names besides the operations (list, create, retrieve, update,
// delete, frontend, job, rearrange, migrate, activity, plugin_list,
// plugin_retrieve, other).
const (
	counterTotal      = "total"
	counterThrottled  = "throttled"
	counterFaulted    = "faulted"
	counterFault429   = "fault_429"
	counterFault502   = "fault_502"
	counterFault503   = "fault_503"
	counterFaultReset = "fault_reset"
)

// operationNames are the operations, each counted on its own and per
// collection.
var operationNames = []string{
	opList, opCreate, opRetrieve, opUpdate, opDelete, opFrontend, opJob, opRearrange, opMigrate, opActivity,
	opPluginList, opPluginRetrieve, opOther,
	opHogList, opHogCreate, opHogRetrieve, opHogUpdate, opHogDelete,
	opTemplateList, opTemplateRetrieve,
}

var counterNames = append(operationNames[:len(operationNames):len(operationNames)],
	counterTotal, counterThrottled, counterFaulted, counterFault429, counterFault502, counterFault503, counterFaultReset,
)

// collectionCounter names the count of op requests to one collection.
func collectionCounter(op, coll string) string { return op + ":" + coll }

// counters count requests per operation, lock-free. The set of names is
// fixed at start, so the maps are only ever read.
type counters struct {
	vals map[string]*atomic.Int64
	// perCollection holds the same counters as vals' per-collection ones,
	// by collection and operation: no name to build per request.
	perCollection map[string]map[string]*atomic.Int64
}

func newCounters(collections []string) *counters {
	c := &counters{
		vals:          make(map[string]*atomic.Int64, len(counterNames)+len(collections)*len(operationNames)),
		perCollection: make(map[string]map[string]*atomic.Int64, len(collections)),
	}
	for _, n := range counterNames {
		c.vals[n] = new(atomic.Int64)
	}
	for _, coll := range collections {
		ops := make(map[string]*atomic.Int64, len(operationNames))
		for _, op := range operationNames {
			ops[op] = new(atomic.Int64)
			c.vals[collectionCounter(op, coll)] = ops[op]
		}
		c.perCollection[coll] = ops
	}
	return c
}

// request counts one API request of operation op, and of op in coll when
// the path names a collection.
func (c *counters) request(op string, coll *collection) {
	c.vals[op].Add(1)
	c.vals[counterTotal].Add(1)
	if coll != nil {
		c.perCollection[coll.name][op].Add(1)
	}
}

func (c *counters) add(name string) { c.vals[name].Add(1) }

// Counters returns the request counts: one per operation (list, create,
// retrieve, update, delete, frontend, job, rearrange, migrate, activity,
// plugin_list and plugin_retrieve of the organization's plugin listings,
// and other for unknown paths and methods), the same per collection as
// "create:pipeline_transformation_configs" and so on, total, throttled
// (rate limit answers), faulted (every injected fault) and fault_429,
// fault_502, fault_503, fault_reset. Every request is counted under the
// operation its path and method name, whether or not the generation serves
// it, faulted or throttled ones too.
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
