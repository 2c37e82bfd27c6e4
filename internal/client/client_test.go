package client

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestNewValidatesConfig(t *testing.T) {
	tests := []struct {
		name      string
		cfg       Config
		wantField string // "" = valid
		wantText  string
	}{
		{"https host", Config{Host: "https://us.posthog.com", APIKey: testKey}, "", ""},
		{"prefix and port", Config{Host: "https://example.com:8443/posthog/", APIKey: testKey}, "", ""},
		{"http loopback", Config{Host: "http://127.0.0.1:8010", APIKey: testKey}, "", ""},
		{"http localhost", Config{Host: "http://localhost:8010", APIKey: testKey}, "", ""},
		{"http ipv6 loopback", Config{Host: "http://[::1]:8010", APIKey: testKey}, "", ""},
		{"http opted in", Config{Host: "http://posthog.internal", APIKey: testKey, AllowInsecureHTTP: true}, "", ""},
		{"empty host", Config{Host: " ", APIKey: testKey}, "host", "must not be empty"},
		{"no scheme", Config{Host: "us.posthog.com", APIKey: testKey}, "host", "absolute http(s) URL"},
		{"other scheme", Config{Host: "ftp://us.posthog.com", APIKey: testKey}, "host", "absolute http(s) URL"},
		{"no host", Config{Host: "https:///api", APIKey: testKey}, "host", "absolute http(s) URL"},
		{"malformed", Config{Host: "https://exa mple.com/%zz", APIKey: testKey}, "host", "malformed"},
		{"query", Config{Host: "https://us.posthog.com/?x=1", APIKey: testKey}, "host", "query"},
		{"credentials", Config{Host: "https://user:hunter2@us.posthog.com", APIKey: testKey}, "host", "credentials"}, //nolint:gosec // a fixture, not a credential
		{"a proxy's prefix with api in it", Config{Host: "https://example.com/api-proxy/posthog/", APIKey: testKey}, "", ""},
		{"the API's path", Config{Host: "https://us.posthog.com/api", APIKey: testKey}, "host",
			`names the API's own path, which the provider adds itself: drop the path from /api on and set host to "https://us.posthog.com"`},
		{"the API's path and a slash", Config{Host: "https://us.posthog.com/api/", APIKey: testKey}, "host", `set host to "https://us.posthog.com"`},
		{"a project's path", Config{Host: "https://example.com/posthog/api/projects/1/", APIKey: testKey}, "host",
			`set host to "https://example.com/posthog"`},
		{"plain http elsewhere", Config{Host: "http://posthog.example.com", APIKey: testKey}, "host", "allow_insecure_http"},
		{"empty key", Config{Host: "https://us.posthog.com"}, "api_key", "must not be empty"},
		{"whitespace key", Config{Host: "https://us.posthog.com", APIKey: " \t\n"}, "api_key", "must not be empty"},
		{"key with inner space", Config{Host: "https://us.posthog.com", APIKey: "phx_abc def"}, "api_key", "whitespace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.cfg)
			if tt.wantField == "" {
				if err != nil || c == nil {
					t.Fatalf("want a client, got %v", err)
				}
				return
			}
			var cfgErr *ConfigError
			if !errors.As(err, &cfgErr) || cfgErr.Field != tt.wantField {
				t.Fatalf("want a ConfigError on %s, got %v", tt.wantField, err)
			}
			if !strings.Contains(err.Error(), tt.wantField) || !strings.Contains(err.Error(), tt.wantText) {
				t.Fatalf("error %q should name %s and say %q", err, tt.wantField, tt.wantText)
			}
			if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), testKey) || strings.Contains(err.Error(), "phx_abc") {
				t.Fatalf("error echoes a secret: %v", err)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	c, err := New(Config{Host: "https://us.posthog.com/", APIKey: " k\n"})
	if err != nil {
		t.Fatal(err)
	}
	if c.base != "https://us.posthog.com" || c.apiKey != "k" || c.userAgent != DefaultUserAgent ||
		c.maxRetries != 0 || c.waitMin != DefaultRetryWaitMin || c.waitMax != DefaultRetryWaitMax ||
		c.pageSize != DefaultPageSize {
		t.Fatalf("defaults: %+v", c)
	}
	if rt, ok := c.http.Transport.(*attemptTransport); !ok || rt.client != c || rt.timeout != 0 {
		t.Fatal("every attempt passes the client's throttle, with no timeout by default")
	}

	c, err = New(Config{Host: "https://x", APIKey: testKey, MaxRetries: -3, RetryWaitMin: time.Second, RetryWaitMax: time.Millisecond,
		RequestsPerMinute: 400, RequestTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if c.maxRetries != 0 || c.waitMax != time.Second {
		t.Fatalf("negative MaxRetries means none, like 0; RetryWaitMax is at least RetryWaitMin: %+v", c)
	}
	if rt, ok := c.http.Transport.(*attemptTransport); !ok || rt.timeout != time.Minute {
		t.Fatal("timeout set")
	}
}
