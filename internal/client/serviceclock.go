package client

import (
	"net/http"
	"sync/atomic"
	"time"
)

// serviceClock estimates the service's clock from the Date header of its
// answers, for callers that compare the service's timestamps (created_at)
// with moments of their own, such as "just before this request".
type serviceClock struct {
	offset atomic.Int64 // service minus local, in nanoseconds
	known  atomic.Bool
}

// observe takes the Date of an answer to a request sent at sent and
// answered at received. Date is truncated to the second, and the service
// read its clock somewhere between sending and receiving: the middle of
// both ranges is the best guess.
func (s *serviceClock) observe(sent, received time.Time, date string) {
	d, err := http.ParseTime(date)
	if err != nil {
		return
	}
	mid := sent.Add(received.Sub(sent) / 2)
	s.offset.Store(int64(d.Add(500 * time.Millisecond).Sub(mid)))
	s.known.Store(true)
}

// ServiceTime converts a moment t of this machine's clock to the service's
// clock, as estimated from the Date headers of its answers so far: to
// within about a second plus half a round trip. ok is false before any
// answer carried a Date.
func (c *Client) ServiceTime(t time.Time) (time.Time, bool) {
	if c.clock == nil || !c.clock.known.Load() {
		return t, false
	}
	return t.Add(time.Duration(c.clock.offset.Load())), true
}
