package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// TestRedirectsStayWithinTheHostSetting: a GET is redirected within the
// configured scheme, host and port, key and all; a redirect to another port
// of the same host or to another host is not followed, so the key goes
// nowhere else, and the error says where the service pointed.
func TestRedirectsStayWithinTheHostSetting(t *testing.T) {
	elsewhere := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
	otherHost := strings.Replace(elsewhere.URL, "127.0.0.1", "localhost", 1)
	for name, tc := range map[string]struct {
		status int
		to     string // the redirect's target origin; "" for the host's own
	}{
		"302 within the host":   {http.StatusFound, ""},
		"302 to another port":   {http.StatusFound, elsewhere.URL},
		"307 to another port":   {http.StatusTemporaryRedirect, elsewhere.URL},
		"302 to another host":   {http.StatusFound, otherHost},
		"307 to another host":   {http.StatusTemporaryRedirect, otherHost},
		"301 to another scheme": {http.StatusMovedPermanently, strings.Replace(elsewhere.URL, "http:", "https:", 1)},
	} {
		t.Run(name, func(t *testing.T) {
			before := elsewhere.count()
			srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("moved") == "" {
					http.Redirect(w, r, tc.to+r.URL.Path+"?moved=1", tc.status) //nolint:gosec // G710: the test redirects where it means to
					return
				}
				success(w, r)
			})
			c := newTestClient(t, srv.URL)
			_, err := c.Get(context.Background(), "1", Transformations, 42)
			if tc.to == "" {
				if err != nil || srv.count() != 2 || srv.requests()[1].Header.Get("Authorization") != "Bearer "+testKey {
					t.Fatalf("want the redirect within the host followed with the key, got %v (%d requests)", err, srv.count())
				}
				return
			}
			var rErr *RedirectError
			if !errors.As(err, &rErr) || rErr.To != tc.to || !strings.Contains(err.Error(), "set host to "+tc.to) {
				t.Fatalf("want the redirect to %s refused, naming it, got %v", tc.to, err)
			}
			if got := elsewhere.count() - before; got != 0 {
				t.Errorf("the other origin got %d requests, want none", got)
			}
			if srv.count() != 1 {
				t.Errorf("the host got %d requests, want 1 (not retried)", srv.count())
			}
		})
	}
}
