package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestServiceTime: the service's clock is read from the Date of its
// answers, to within about a second.
func TestServiceTime(t *testing.T) {
	t.Parallel()
	const ahead = time.Hour
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Date", time.Now().Add(ahead).UTC().Format(http.TimeFormat))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id": 1, "plugin": 1}`))
	}))
	defer srv.Close()
	c, err := New(Config{Host: srv.URL, APIKey: "phx_test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.ServiceTime(time.Now()); ok {
		t.Fatal("a service time before any answer")
	}
	if _, err := c.Get(context.Background(), "1", Transformations, 1); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	got, ok := c.ServiceTime(now)
	if !ok {
		t.Fatal("no service time after an answer with a Date")
	}
	if d := got.Sub(now.Add(ahead)); d < -time.Second || d > time.Second {
		t.Errorf("service time off by %s", d)
	}
}
