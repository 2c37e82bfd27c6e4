package client

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

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
	if !IsUnauthorized(errs[1]) || !strings.Contains(errs[1].Error(), "[REDACTED]") {
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
		switch e["@message"] {
		case "API response":
			responses++
			for _, f := range []string{"method", "path", "status", "duration_ms", "attempt"} {
				if _, ok := e[f]; !ok {
					t.Errorf("response line without %s: %v", f, e)
				}
			}
		case "API request failed":
			failures++
		}
		if msg, _ := e["@message"].(string); strings.HasPrefix(msg, "retrying GET") {
			retries++
		}
	}
	if responses < 5 || retries < 2 || failures < 2 {
		t.Fatalf("want response, retry and failure lines; got %d, %d, %d:\n%v", responses, retries, failures, entries)
	}
}

func TestRetryableHTTPLogsGoToTflog(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	c := newTestClient(t, srv.URL)
	if _, err := c.Get(ctx, "1", Transformations, 42); err != nil {
		t.Fatal(err)
	}
	entries, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e["@message"] == "retryablehttp: performing request" && e["@level"] == "debug" {
			return
		}
	}
	js, _ := json.Marshal(entries)
	t.Fatalf("no retryablehttp line in %s", js)
}

func TestMaskKeyMasksMessagesAndFields(t *testing.T) {
	var buf bytes.Buffer
	ctx := maskKey(tflogtest.RootLogger(context.Background(), &buf), testKey)
	tflog.Debug(ctx, "oops "+testKey, map[string]any{"header": "Bearer " + testKey})
	if strings.Contains(buf.String(), testKey) || !strings.Contains(buf.String(), "oops") {
		t.Fatalf("not masked: %s", buf.String())
	}
}
