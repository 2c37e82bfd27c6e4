package client

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const testKey = "phx_test_SECRET_key_0123456789"

// testConfig returns a config for an httptest server with tiny waits, so
// retry tests stay fast.
func testConfig(host string) Config {
	return Config{
		Host:         host,
		APIKey:       testKey,
		MaxRetries:   3,
		RetryWaitMin: time.Millisecond,
		RetryWaitMax: 5 * time.Millisecond,
	}
}

func newTestClient(t *testing.T, host string, mods ...func(*Config)) *Client {
	t.Helper()
	cfg := testConfig(host)
	for _, m := range mods {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// seenRequest is what a test server received.
type seenRequest struct {
	Method      string
	Path        string
	Query       string
	Header      http.Header
	Body        []byte
	ContentType string
}

// recorder is an httptest server that records requests and answers with
// the handler for the request's sequence number (0-based, over all
// requests).
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seenRequest
	n    atomic.Int32
}

func newRecorder(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) *recorder {
	t.Helper()
	rec := newUnstartedRecorder(t, answer)
	rec.Start()
	return rec
}

// newUnstartedRecorder is newRecorder's server before it starts, for a
// test that sets it up (StartTLS, its TLS config).
func newUnstartedRecorder(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, seenRequest{
			Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery,
			Header: r.Header.Clone(), Body: body, ContentType: r.Header.Get("Content-Type"),
		})
		rec.mu.Unlock()
		n := int(rec.n.Add(1)) - 1
		r.Body = io.NopCloser(bytes.NewReader(body))
		answer(n, w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) requests() []seenRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]seenRequest(nil), r.reqs...)
}

func (r *recorder) count() int { return int(r.n.Load()) }

// probeQuery is the query of the client's look at a collection after a
// 404 (collections.go).
const probeQuery = "limit=1"

// isProbe reports whether r is such a look.
func isProbe(r *http.Request) bool { return r.URL.RawQuery == probeQuery }

// answerProbe answers a probe with an empty page and reports whether r was
// one: the collection exists, so a 404 is a missing record.
func answerProbe(w http.ResponseWriter, r *http.Request) bool {
	if !isProbe(r) {
		return false
	}
	writeJSON(w, http.StatusOK, `{"count": 0, "next": null, "previous": null, "results": []}`)
	return true
}

// attempts counts the requests that were not probes.
func (r *recorder) attempts() int {
	n := 0
	for _, req := range r.requests() {
		if req.Query != probeQuery {
			n++
		}
	}
	return n
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	switch b := v.(type) {
	case string:
		_, _ = io.WriteString(w, b)
	default:
		_ = json.NewEncoder(w).Encode(v)
	}
}

// recordJSON is a record as the live service answers a retrieve.
const recordJSON = `{"id": 42, "plugin": 7, "enabled": true, "order": 3, "config": {"a": "b"},
 "error": null, "team_id": 1, "plugin_info": {"name": "p"}, "delivery_rate_24h": 0.5,
 "created_at": "2024-06-01T10:00:00.123456Z", "updated_at": "2024-06-01T10:00:00.123456Z",
 "name": "n", "description": "d", "deleted": false, "filters": null}`

func envelope(typ, code, detail, attr string) string {
	b, _ := json.Marshal(map[string]any{"type": typ, "code": code, "detail": detail, "attr": attr})
	return string(b)
}
