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
// (localapi.VersionE2026): every key scoped, JSON creates refused, no
// delivery_rate_24h, the import apps' second rule. Today's service makes
// no config, so before, unless nil, is called first with a client of
// KeyFull while the server is still at version B: the configs it makes are
// there when the server moves on. wrap sees before's requests too.
func IsolatedTodayAPI(t testing.TB, wrap func(http.Handler) http.Handler, before func(c *client.Client)) (host string, srv *localapi.Server) {
	t.Helper()
	return IsolatedVersionAPI(t, localapi.VersionE2026, wrap, before)
}

// IsolatedVersionAPI is IsolatedAPI as version v of the service, with the
// configs before makes (unless nil, with a client of KeyFull) at version
// B, which makes every config: from E on the service makes none.
func IsolatedVersionAPI(t testing.TB, v localapi.Version, wrap func(http.Handler) http.Handler, before func(c *client.Client)) (host string, srv *localapi.Server) {
	t.Helper()
	// Today's mode with E2026, so that a later SetGeneration(2) means it.
	host, srv = IsolatedAPIWith(t, localapi.Options{Version: localapi.VersionB, Today: v == localapi.VersionE2026}, wrap)
	if before != nil {
		before(ClientFor(t, host, KeyFull))
	}
	if err := srv.SetVersion(v); err != nil {
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
