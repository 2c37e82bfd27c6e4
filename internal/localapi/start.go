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

	stopOnce sync.Once
	stopErr  error
}

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
		http:   &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute},
		done:   make(chan error, 1),
	}
	go func() { r.done <- r.http.Serve(ln) }()
	return r, nil
}

// Shutdown stops accepting requests, waits for those under way (until ctx
// ends), then closes the database.
func (r *Running) Shutdown(ctx context.Context) error {
	r.stopOnce.Do(func() {
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
