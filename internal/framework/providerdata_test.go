package framework

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// pluginService answers the plugin listing's GET of a plugin with answer,
// given the request's number (0-based), and counts the requests.
func pluginService(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) (*ProviderData, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answer(int(n.Add(1)-1), w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{Host: srv.URL, APIKey: "phx_test", RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return &ProviderData{Client: c}, &n
}

func geoIP(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"id": 1, "name": "GeoIP"}`))
}

func answerStatus(w http.ResponseWriter, status int, detail string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"type": "x", "code": "x", "detail": "` + detail + `", "attr": null}`))
}

// wantGeoIP fails the test unless a look found plugin 1.
func wantGeoIP(t *testing.T, what string, p *client.Plugin, err error) {
	t.Helper()
	if err != nil || p == nil || p.ID != 1 {
		t.Errorf("%s: got %+v, %v; want plugin 1", what, p, err)
	}
}

// TestPlugin_cancelledFirstCallerFailsNoOther: the caller whose context
// ends while its look is under way gets its own error; a caller waiting on
// that look looks again and gets the plugin, which is then kept.
func TestPlugin_cancelledFirstCallerFailsNoOther(t *testing.T) {
	t.Parallel()
	arrived := make(chan struct{})
	meta, n := pluginService(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			close(arrived)
			<-r.Context().Done() // never answers the first look
			return
		}
		geoIP(w)
	})
	first, cancel := context.WithCancel(context.Background())
	firstErr := make(chan error, 1)
	go func() {
		_, err := meta.Plugin(first, 1)
		firstErr <- err
	}()
	<-arrived
	var second struct {
		p   *client.Plugin
		err error
	}
	var wg sync.WaitGroup
	wg.Go(func() { second.p, second.err = meta.Plugin(context.Background(), 1) })
	time.Sleep(50 * time.Millisecond) // the second caller waits on the first look
	cancel()
	if err := <-firstErr; !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled caller got %v, want its context's cancellation", err)
	}
	wg.Wait()
	wantGeoIP(t, "the caller whose context lives on", second.p, second.err)
	p, err := meta.Plugin(context.Background(), 1)
	wantGeoIP(t, "a later caller", p, err)
	if got := n.Load(); got != 2 {
		t.Errorf("the service was asked %d times, want 2 (the cancelled look, then one that is kept)", got)
	}
}

// TestPlugin_failureIsNotKept: a look that fails in a way waiting may mend
// (a 503, no answer) is not kept; the next caller looks again, and the
// plugin it finds is kept.
func TestPlugin_failureIsNotKept(t *testing.T) {
	t.Parallel()
	meta, n := pluginService(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			answerStatus(w, http.StatusServiceUnavailable, "busy")
			return
		}
		geoIP(w)
	})
	if _, err := meta.Plugin(context.Background(), 1); client.StatusOf(err) != http.StatusServiceUnavailable {
		t.Fatalf("the first look got %v, want the 503", err)
	}
	for _, what := range []string{"the look after the failure", "a later look"} {
		p, err := meta.Plugin(context.Background(), 1)
		wantGeoIP(t, what, p, err)
	}
	if got := n.Load(); got != 2 {
		t.Errorf("the service was asked %d times, want 2", got)
	}
}

// TestPlugin_lastingRefusalIsKept: a refusal the same request would get
// again (a key limited to projects, an unknown plugin) is asked once.
func TestPlugin_lastingRefusalIsKept(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		status int
		detail string
	}{
		"key limited to projects": {http.StatusForbidden, "API keys with scoped projects are only supported on project-based endpoints."},
		"unknown plugin":          {http.StatusNotFound, "Not found."},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			meta, n := pluginService(t, func(n int, w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/api/organizations/@current/plugins/1/" {
					geoIP(w) // the 404's look at the listing: it exists
					return
				}
				answerStatus(w, tc.status, tc.detail)
			})
			for range 3 {
				if _, err := meta.Plugin(context.Background(), 1); client.StatusOf(err) != tc.status {
					t.Fatalf("got %v, want the %d", err, tc.status)
				}
			}
			if got, want := n.Load(), map[int]int32{http.StatusForbidden: 1, http.StatusNotFound: 2}[tc.status]; got != want {
				t.Errorf("the service was asked %d times, want %d (one look)", got, want)
			}
		})
	}
}

// TestPlugin_concurrentCallersShareOneLook: callers at once make one request.
func TestPlugin_concurrentCallersShareOneLook(t *testing.T) {
	t.Parallel()
	meta, n := pluginService(t, func(n int, w http.ResponseWriter, r *http.Request) {
		time.Sleep(100 * time.Millisecond)
		geoIP(w)
	})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			p, err := meta.Plugin(context.Background(), 1)
			wantGeoIP(t, "a concurrent caller", p, err)
		})
	}
	wg.Wait()
	if got := n.Load(); got != 1 {
		t.Errorf("the service was asked %d times, want 1", got)
	}
}
