package serve

import (
	"context"
	"sync/atomic"
	"time"
)

// requestContext is the context a wrapped request's handler sees (see
// releaseRequestContexts): the request's own until release, then an empty,
// cancelled one. By then the request's context is done anyway; what differs
// is that nothing keeping this one keeps the request's values alive.
type requestContext struct {
	current atomic.Pointer[context.Context]
}

// releasedContext is what a released requestContext forwards to.
var releasedContext = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

func newRequestContext(ctx context.Context) *requestContext {
	rc := &requestContext{}
	rc.current.Store(&ctx)
	return rc
}

// release forgets the request's context.
func (c *requestContext) release() { c.current.Store(&releasedContext) }

func (c *requestContext) ctx() context.Context { return *c.current.Load() }

// Deadline implements context.Context.
func (c *requestContext) Deadline() (time.Time, bool) { return c.ctx().Deadline() }

// Done implements context.Context. While the request runs it is the
// request's own channel, so contexts derived from this one join the
// request's cancellation directly, without a goroutine each.
func (c *requestContext) Done() <-chan struct{} { return c.ctx().Done() }

// Err implements context.Context.
func (c *requestContext) Err() error { return c.ctx().Err() }

// Value implements context.Context.
func (c *requestContext) Value(key any) any { return c.ctx().Value(key) }
