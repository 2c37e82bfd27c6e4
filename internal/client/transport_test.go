package client

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

func TestHeadersSent(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
	for _, tt := range []struct{ ua, want string }{
		{"", "terraform-provider-pipeline"},
		{"Terraform/1.11.0 terraform-provider-pipeline/0.1.0", "Terraform/1.11.0 terraform-provider-pipeline/0.1.0"},
	} {
		c := newTestClient(t, srv.URL, func(c *Config) { c.UserAgent = tt.ua; c.APIKey = "  " + testKey + "\n" })
		if _, err := c.Get(context.Background(), "1", Transformations, 42); err != nil {
			t.Fatal(err)
		}
		reqs := srv.requests()
		h := reqs[len(reqs)-1].Header
		if h.Get("User-Agent") != tt.want {
			t.Errorf("User-Agent: got %q, want %q", h.Get("User-Agent"), tt.want)
		}
		if h.Get("Authorization") != "Bearer "+testKey {
			t.Errorf("Authorization: got %q", h.Get("Authorization"))
		}
		if h.Get("Accept") != "application/json" {
			t.Errorf("Accept: got %q", h.Get("Accept"))
		}
	}
}

// TestKeyNeverLogged drives every kind of outcome with a tflog root logger
// at TRACE and checks the key appears in no log line and no error.
func TestKeyNeverLogged(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/1/"):
			success(w, r)
		case strings.HasSuffix(r.URL.Path, "/2/") && n%2 == 1:
			w.Header().Set("Retry-After", "0")
			writeJSON(w, 429, envelope("throttled_error", "throttled", "Request was throttled.", ""))
		case strings.HasSuffix(r.URL.Path, "/2/"):
			success(w, r)
		case strings.HasSuffix(r.URL.Path, "/3/"):
			// A service that echoes the header back in its error.
			writeJSON(w, 401, envelope("authentication_error", "authentication_failed",
				"Personal API key "+r.Header.Get("Authorization")+" is invalid.", ""))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(502)
			//nolint:gosec // echoing the header is the point: a careless proxy
			_, _ = w.Write([]byte("<html><body>bad gateway for " + r.Header.Get("Authorization") + "</body></html>"))
		}
	})
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)

	c := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 1 })
	var errs []error
	if _, err := c.Get(ctx, "1", Transformations, 1); err != nil {
		t.Fatal(err)
	}
	_, err := c.Get(ctx, "1", Transformations, 2)
	errs = append(errs, err)
	_, err = c.Get(ctx, "1", Transformations, 3)
	errs = append(errs, err)
	_, err = c.Get(ctx, "1", Transformations, 4)
	errs = append(errs, err)
	_, err = newTestClient(t, closedPort(t), func(c *Config) { c.MaxRetries = 1 }).Get(ctx, "1", Transformations, 5)
	errs = append(errs, err)
	_, err = New(Config{Host: "ftp://x", APIKey: testKey})
	errs = append(errs, err)
	_, err = New(Config{Host: "https://x", APIKey: testKey + " tail"})
	errs = append(errs, err)

	for _, e := range errs {
		if e == nil {
			continue
		}
		if strings.Contains(e.Error(), testKey) {
			t.Errorf("error contains the key: %v", e)
		}
	}
	if StatusOf(errs[1]) != http.StatusUnauthorized || !strings.Contains(errs[1].Error(), "[REDACTED]") {
		t.Errorf("want the echoed key redacted in the 401: %v", errs[1])
	}

	logs := buf.String()
	if strings.Contains(logs, testKey) {
		t.Fatalf("the key is in the logs:\n%s", logs)
	}
	if strings.Contains(logs, "Bearer") {
		t.Fatalf("an Authorization header is in the logs:\n%s", logs)
	}

	// The per-attempt lines are there, with their fields.
	entries, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var responses, retries, failures int
	for _, e := range entries {
		if e["@message"] == "API request" {
			for _, f := range []string{"method", "path", "duration_ms", "attempt"} {
				if _, ok := e[f]; !ok {
					t.Errorf("request line without %s: %v", f, e)
				}
			}
			if _, ok := e["status"]; ok {
				responses++
			}
			if _, ok := e["error"]; ok {
				failures++
			}
		}
		if msg, _ := e["@message"].(string); strings.HasPrefix(msg, "retrying GET") {
			retries++
		}
	}
	if responses < 5 || retries < 2 || failures < 2 {
		t.Fatalf("want response, retry and failure lines; got %d, %d, %d:\n%v", responses, retries, failures, entries)
	}
}

// TestEachAttemptLoggedOnce: TF_LOG=debug shows one line per HTTP attempt
// (method, path, attempt, duration, and the status or the error), and
// nothing else names the request but the line of each retry's wait;
// go-retryablehttp's own lines repeated them.
func TestEachAttemptLoggedOnce(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			writeJSON(w, http.StatusServiceUnavailable, envelope("server_error", "x", "busy", ""))
			return
		}
		success(w, r)
	})
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	c := newTestClient(t, srv.URL)
	if _, err := c.Get(ctx, "1", Transformations, 42); err != nil { // a 503, then the answer
		t.Fatal(err)
	}
	if _, err := c.Update(ctx, "1", Transformations, 42, RecordInput{Enabled: Some(true)}); err != nil {
		t.Fatal(err)
	}
	entries, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	const path = "/api/projects/1/pipeline_transformation_configs/42/"
	type request struct{ method, path string }
	lines := map[request][]map[string]any{}
	retries := map[request]int{}
	for _, e := range entries {
		msg, _ := e["@message"].(string)
		if strings.HasPrefix(msg, "retryablehttp") {
			t.Errorf("a line of go-retryablehttp's: %v", e)
		}
		switch {
		case msg == "API request":
			method, _ := e["method"].(string)
			path, _ := e["path"].(string)
			r := request{method, path}
			lines[r] = append(lines[r], e)
		case strings.HasPrefix(msg, "retrying GET "+path):
			retries[request{"GET", path}]++
		default:
			js, _ := json.Marshal(e)
			if strings.Contains(string(js), path) || strings.Contains(string(js), srv.URL) {
				t.Errorf("another line names the request: %s", js)
			}
		}
	}
	want := map[request]int{{"GET", path}: 2, {"PATCH", path}: 1}
	for r, n := range want {
		got := lines[r]
		if len(got) != n {
			t.Errorf("%s %s: want %d lines (one per attempt), got %d: %v", r.method, r.path, n, len(got), got)
			continue
		}
		for i, e := range got {
			if attempt, _ := e["attempt"].(float64); int(attempt) != i+1 {
				t.Errorf("%s %s line %d: attempt %v", r.method, r.path, i, e["attempt"])
			}
			if _, ok := e["duration_ms"].(float64); !ok {
				t.Errorf("%s %s line %d: no duration_ms: %v", r.method, r.path, i, e)
			}
			if e["@level"] != "debug" {
				t.Errorf("%s %s line %d: level %v", r.method, r.path, i, e["@level"])
			}
		}
	}
	if len(lines) != len(want) {
		t.Errorf("want lines of %d requests, got %v", len(want), lines)
	}
	if s, _ := lines[request{"GET", path}][0]["status"].(float64); s != 503 {
		t.Errorf("the first GET's line: status %v", lines[request{"GET", path}][0]["status"])
	}
	if s, _ := lines[request{"GET", path}][1]["status"].(float64); s != 200 {
		t.Errorf("the second GET's line: status %v", lines[request{"GET", path}][1]["status"])
	}
	if retries[request{"GET", path}] != 1 {
		t.Errorf("want one line for the GET's retry, got %d", retries[request{"GET", path}])
	}
}

func TestMaskKeyMasksMessagesAndFields(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflog.MaskLogStrings(tflogtest.RootLogger(context.Background(), &buf), testKey)
	tflog.Debug(ctx, "oops "+testKey, map[string]any{"header": "Bearer " + testKey})
	if strings.Contains(buf.String(), testKey) || !strings.Contains(buf.String(), "oops") {
		t.Fatalf("not masked: %s", buf.String())
	}
}

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
