package acctest

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// IsolatedAPI starts a local API of the test's own, behind wrap (nil for
// none), for tests that count or rewrite requests and so must not share the
// instance. It is stopped when the test ends. Against a live instance such
// tests are skipped.
func IsolatedAPI(t testing.TB, wrap func(http.Handler) http.Handler) (host string, srv *localapi.Server) {
	t.Helper()
	return IsolatedAPIWith(t, localapi.Options{}, wrap)
}

// IsolatedAPIWith is IsolatedAPI with options of the test's own, such as
// keys the shared instance does not have.
func IsolatedAPIWith(t testing.TB, opts localapi.Options, wrap func(http.Handler) http.Handler) (host string, srv *localapi.Server) {
	t.Helper()
	if IsLive() {
		t.Skip("needs the local API")
	}
	srv, err := localapi.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(h)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	})
	return ts.URL, srv
}

// IsolatedTodayAPI is IsolatedAPI as the service is today
// (localapi.Options.Today): generation 2 with every key scoped, JSON
// creates refused, no delivery_rate_24h, the import apps' second rule.
// Today's service makes no config, so before, unless nil, is called first
// with a client of KeyFull while the server is still at generation 1: the
// configs it makes are there when the server moves to today's generation
// 2. wrap sees before's requests too.
func IsolatedTodayAPI(t testing.TB, wrap func(http.Handler) http.Handler, before func(c *client.Client)) (host string, srv *localapi.Server) {
	t.Helper()
	host, srv = IsolatedAPIWith(t, localapi.Options{Today: true, Generation: localapi.Generation1}, wrap)
	if before != nil {
		before(ClientFor(t, host, KeyFull))
	}
	if err := srv.SetGeneration(localapi.Generation2); err != nil {
		t.Fatal(err)
	}
	return host, srv
}

// RequestLog records the requests that pass through it as "METHOD path".
type RequestLog struct {
	mu   sync.Mutex
	reqs []string
}

// Wrap returns h recording every request.
func (l *RequestLog) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.reqs = append(l.reqs, r.Method+" "+r.URL.Path)
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// Take returns the requests recorded since the last Take.
func (l *RequestLog) Take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.reqs
	l.reqs = nil
	return out
}
