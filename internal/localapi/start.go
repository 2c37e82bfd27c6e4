package localapi

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// Running is a Server listening on a TCP address.
type Running struct {
	*Server
	// URL is the base URL, like http://127.0.0.1:41234 (no trailing slash).
	URL string
	// Addr is the address listened on, like 127.0.0.1:41234.
	Addr string

	http *http.Server
	done chan error

	// silent holds the connections that have not sent a request yet:
	// http.Server.Shutdown waits up to five seconds for those (a client's
	// spare dial, say), which Shutdown closes instead.
	silentMu sync.Mutex
	silent   map[net.Conn]struct{}

	stopOnce sync.Once
	stopErr  error
}

// requestReadTimeout bounds the reading of a request, headers and body: a
// body that trickles in is cut off (its read fails, and the request is
// answered 400) instead of holding a connection and a handler for as long
// as its sender likes. A body the size of maxBody takes milliseconds here.
const requestReadTimeout = 10 * time.Second

// Start creates a Server and serves it on opts.Addr (default 127.0.0.1:0,
// a free port) until Close or Shutdown.
func Start(opts Options) (*Running, error) {
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	s, err := New(opts)
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", addr)
	if err != nil {
		return nil, errors.Join(err, s.Close())
	}
	r := &Running{
		Server: s,
		Addr:   ln.Addr().String(),
		URL:    "http://" + ln.Addr().String(),
		done:   make(chan error, 1),
		silent: map[net.Conn]struct{}{},
	}
	r.http = &http.Server{
		Handler: s, ReadTimeout: requestReadTimeout, IdleTimeout: 2 * time.Minute,
		ConnState: r.trackSilent,
	}
	go func() { r.done <- r.http.Serve(ln) }()
	return r, nil
}

// Shutdown stops accepting requests, waits for those under way (until ctx
// ends), then closes the database.
func (r *Running) Shutdown(ctx context.Context) error {
	r.stopOnce.Do(func() {
		r.closeSilent()
		err := r.http.Shutdown(ctx)
		if err != nil {
			err = errors.Join(err, r.http.Close()) // ctx ended: drop the rest
		}
		if serveErr := <-r.done; !errors.Is(serveErr, http.ErrServerClosed) {
			err = errors.Join(err, serveErr)
		}
		r.stopErr = errors.Join(err, r.Server.Close())
	})
	return r.stopErr
}

// Close shuts down, giving requests under way five seconds to finish;
// connections still open then are closed, which is not an error here.
func (r *Running) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := r.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = r.Server.Close() // already closed by Shutdown: its result
	}
	return err
}

// trackSilent keeps the set of connections that have not sent a request.
func (r *Running) trackSilent(c net.Conn, state http.ConnState) {
	r.silentMu.Lock()
	defer r.silentMu.Unlock()
	if state == http.StateNew {
		r.silent[c] = struct{}{}
	} else {
		delete(r.silent, c)
	}
}

// closeSilent closes the connections that have not sent a request: nothing
// is under way on them.
func (r *Running) closeSilent() {
	r.silentMu.Lock()
	defer r.silentMu.Unlock()
	for c := range r.silent {
		_ = c.Close()
		delete(r.silent, c)
	}
}
