package client

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// withDefaultWaits gives a test client the provider's retry defaults, under
// which retrying a failure that cannot mend took some 18 s.
func withDefaultWaits(c *Config) {
	c.MaxRetries = DefaultMaxRetries
	c.RetryWaitMin = DefaultRetryWaitMin
	c.RetryWaitMax = DefaultRetryWaitMax
}

// sanityBound is far above a failure at once and far below the 18 s of the
// whole backoff: a bound, not a speed target.
const sanityBound = 5 * time.Second

// failsWith runs method against c and checks that it fails with a
// *TransportError after attempts attempts, whose message holds words. It
// reports whether the request may have reached the service.
func failsWith(t *testing.T, c *Client, method string, attempts int, words ...string) (maybeSent bool) {
	t.Helper()
	start := time.Now()
	err := call(context.Background(), c, method)
	if d := time.Since(start); d > sanityBound {
		t.Errorf("took %s, want well under %s", d, sanityBound)
	}
	var tErr *TransportError
	if !errors.As(err, &tErr) {
		t.Fatalf("want *TransportError, got %T %v", err, err)
	}
	if tErr.Attempts != attempts {
		t.Errorf("want %d attempt(s), got %d: %v", attempts, tErr.Attempts, err)
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error does not say %q: %v", w, err)
		}
	}
	if tErr.MaybeSent != MayHaveApplied(err) {
		t.Errorf("MaybeSent %v, MayHaveApplied %v", tErr.MaybeSent, MayHaveApplied(err))
	}
	return tErr.MaybeSent
}

// TestNoSuchHostFailsAtOnce: a host DNS does not know (a typo) is not
// retried, and the error names it and says what to check. A create that
// never left is not one that may have been applied.
func TestNoSuchHostFailsAtOnce(t *testing.T) {
	const host = "pipeline.invalid" // RFC 2606: never resolves
	if _, err := net.DefaultResolver.LookupHost(context.Background(), host); err == nil {
		t.Fatalf("%s resolves here", host)
	} else if dnsErr := (*net.DNSError)(nil); !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Skipf("this machine's resolver does not answer 'no such host' (%v)", err)
	}
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		t.Run(method, func(t *testing.T) {
			c := newTestClient(t, "https://"+host, withDefaultWaits)
			if failsWith(t, c, method, 1,
				`/api/projects/1/pipeline_transformation_configs/`,
				`cannot find the host "pipeline.invalid": check the host setting for a typo`, "no such host") {
				t.Error("a request whose host was not found never left")
			}
		})
	}
}

// TestRefusedConnectionIsRetriedOnceQuickly: a port nothing listens on is
// tried twice, the second time after RetryWaitMin (not the whole backoff),
// and the error names the host and the port to check; max_retries 0 means
// no retry at all.
func TestRefusedConnectionIsRetriedOnceQuickly(t *testing.T) {
	host := closedPort(t)
	addr := strings.TrimPrefix(host, "http://")
	c := newTestClient(t, host, withDefaultWaits)
	if failsWith(t, c, http.MethodPost, 2,
		`nothing accepts connections at "`+addr+`": check the port in the host setting and that the service is running there`,
		"connection refused", "gave up after 2 attempts") {
		t.Error("a refused request never left")
	}

	c = newTestClient(t, host, func(c *Config) { withDefaultWaits(c); c.MaxRetries = 0 })
	_ = failsWith(t, c, http.MethodGet, 1, "nothing accepts connections")
}

// tlsServer is an httptest TLS server with a self-signed certificate,
// whose handshake errors stay out of the test's output; tune, when set,
// adjusts its TLS settings.
func tlsServer(t *testing.T, tune func(*tls.Config)) *recorder {
	t.Helper()
	srv := newUnstartedRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake failures are expected
	if tune != nil {
		srv.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
		tune(srv.TLS)
	}
	srv.StartTLS()
	return srv
}

// trusting returns a transport that trusts srv's self-signed certificate.
func trusting(srv *recorder) *http.Transport {
	tr, ok := srv.Client().Transport.(*http.Transport)
	if !ok {
		panic("httptest's client has no *http.Transport")
	}
	return tr.Clone()
}

// TestTLSFailuresFailAtOnce: a certificate this machine does not accept, a
// server that does not speak TLS, and a handshake the server refuses are
// not retried; the error names the host and what to check. A certificate
// refused here proves the request never left.
func TestTLSFailuresFailAtOnce(t *testing.T) {
	t.Run("unknown authority", func(t *testing.T) {
		srv := tlsServer(t, nil)
		c := newTestClient(t, srv.URL, withDefaultWaits) // the test CA is unknown here
		hostPort := strings.TrimPrefix(srv.URL, "https://")
		if failsWith(t, c, http.MethodPost, 1,
			`the TLS certificate of "`+hostPort+`" is signed by an authority this machine does not trust`,
			"check that the host setting names the service itself", "x509") || srv.count() != 0 {
			t.Errorf("a certificate refused in the handshake proves the create never left (server saw %d)", srv.count())
		}
	})
	t.Run("hostname mismatch", func(t *testing.T) {
		srv := tlsServer(t, nil)
		// The test certificate is for 127.0.0.1, ::1 and example.com.
		_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "https://"))
		tr := trusting(srv)
		tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+port)
		}
		c := newTestClient(t, "https://pipeline.example:"+port, func(c *Config) { withDefaultWaits(c); c.Transport = tr })
		_ = failsWith(t, c, http.MethodGet, 1,
			`the TLS certificate of "pipeline.example:`+port+`" is issued for other names: check that the host setting uses a name the certificate is for`,
			"not pipeline.example")
	})
	t.Run("plain http on an https URL", func(t *testing.T) {
		srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
		host := "https://" + strings.TrimPrefix(srv.URL, "http://")
		c := newTestClient(t, host, withDefaultWaits)
		if failsWith(t, c, http.MethodPost, 1, "answered plain HTTP to an https request: check the scheme and port in the host setting") {
			t.Error("a server that does not speak TLS never got the create")
		}
	})
	t.Run("handshake refused", func(t *testing.T) {
		srv := tlsServer(t, func(cfg *tls.Config) { cfg.MinVersion = tls.VersionTLS13 })
		tr := trusting(srv)
		tr.TLSClientConfig.MaxVersion = tls.VersionTLS12
		c := newTestClient(t, srv.URL, func(c *Config) { withDefaultWaits(c); c.Transport = tr })
		_ = failsWith(t, c, http.MethodGet, 1, "refused the TLS handshake", "protocol version not supported")
	})
	t.Run("client certificate required", func(t *testing.T) {
		srv := tlsServer(t, func(cfg *tls.Config) { cfg.ClientAuth = tls.RequireAnyClientCert })
		c := newTestClient(t, srv.URL, func(c *Config) { withDefaultWaits(c); c.Transport = trusting(srv) })
		_ = failsWith(t, c, http.MethodGet, 1, "refused the TLS handshake", "certificate required")
	})
}

// TestTransientTransportErrorsAreStillRetried: what may mend by waiting is
// retried as before: a resolver that fails, a handshake that times out.
func TestTransientTransportErrorsAreStillRetried(t *testing.T) {
	for name, err := range map[string]error{
		"dns server failure": &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "server misbehaving", Name: "api.example", IsTemporary: true}},
		"dns timeout":        &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "i/o timeout", Name: "api.example", IsTimeout: true}},
		"handshake timeout":  errors.New("net/http: TLS handshake timeout"),
		"internal alert":     &net.OpError{Op: "remote error", Err: errors.New("tls: internal error")},
	} {
		t.Run(name, func(t *testing.T) {
			srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
			ft := &flakyTransport{next: http.DefaultTransport, fails: 2, err: err}
			c := newTestClient(t, srv.URL, func(c *Config) { c.Transport = ft })
			if _, err := c.Get(context.Background(), "1", Transformations, 42); err != nil {
				t.Fatalf("want success after retries, got %v", err)
			}
			if got := ft.calls.Load(); got != 3 {
				t.Fatalf("want 3 attempts, got %d", got)
			}
		})
	}
}
