// Package client is the provider's one API client, the HTTP boundary: it
// knows the API, nothing of Terraform (DESIGN.md, "Map of the code"). One
// Client serves a run and is safe for concurrent use.
package client

import (
	"cmp"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

// Defaults New applies to zero fields of Config, and the provider's.
const (
	DefaultUserAgent    = "terraform-provider-pipeline"
	DefaultRetryWaitMin = 500 * time.Millisecond
	DefaultRetryWaitMax = 30 * time.Second
	DefaultPageSize     = 100
	// DefaultMaxRetries is the provider's; New takes a zero MaxRetries as no retry.
	DefaultMaxRetries = 5
)

// Config configures a Client.
type Config struct {
	// Host is the service's base URL; a path prefix is kept.
	Host       string
	APIKey     string // the personal API key, sent as a Bearer token; never logged
	UserAgent  string
	MaxRetries int // of a 502, 503, 504 or transport error; a 429's go on until ctx's deadline
	// RetryWaitMin and RetryWaitMax bound the backoff between those
	// retries and cap their Retry-After (a 429's is waited in full).
	RetryWaitMin, RetryWaitMax time.Duration
	RequestTimeout             time.Duration     // one HTTP attempt, its body included (0: none)
	RequestsPerMinute          int               // paces every HTTP attempt, retries included (0: no pace)
	PageSize                   int               // the limit ListAll asks for per page
	AllowInsecureHTTP          bool              // permits a plain http Host that is not loopback
	Transport                  http.RoundTripper // replaces the default HTTP transport (tests)
}

// Client calls the pipeline config API.
type Client struct {
	base              string // scheme://host[/prefix], no trailing slash
	hostPort          string // the host of base, with its port if it names one
	apiKey, userAgent string
	maxRetries        int
	waitMin, waitMax  time.Duration
	pageSize          int
	http              *http.Client
	clockOffset       atomic.Pointer[time.Duration] // of the service's clock from this machine's; nil before any Date
	throttle          *throttle.Throttle
	colls             collections
	current           currentProject
	unanswered        atomic.Int32 // attempts in a row without an answer (silentAfter)
}

// New validates cfg and returns a client; its errors are *ConfigError and
// never contain the key.
func New(cfg Config) (*Client, error) { return newClient(cfg, throttle.RealClock{}) }

func newClient(cfg Config, clk throttle.Clock) (*Client, error) {
	base, hostPort, err := parseHost(cfg.Host, cfg.AllowInsecureHTTP)
	if err != nil {
		return nil, err
	}
	key, err := checkAPIKey(cfg.APIKey)
	if err != nil {
		return nil, err
	}
	c := &Client{
		base:       base,
		hostPort:   hostPort,
		apiKey:     key,
		userAgent:  cmp.Or(strings.TrimSpace(cfg.UserAgent), DefaultUserAgent),
		maxRetries: max(cfg.MaxRetries, 0),
		waitMin:    cmp.Or(max(cfg.RetryWaitMin, 0), DefaultRetryWaitMin),
		pageSize:   cmp.Or(max(cfg.PageSize, 0), DefaultPageSize),
		colls:      collections{gone: map[target]bool{}, missingActions: map[target]int64{}},
	}
	c.waitMax = max(cmp.Or(max(cfg.RetryWaitMax, 0), DefaultRetryWaitMax), c.waitMin)

	c.throttle = throttle.New(cfg.RequestsPerMinute, func(streak int) time.Duration {
		return backoff(c.waitMin, c.waitMax, streak, nil)
	}, clk)
	rt := &attemptTransport{next: cmp.Or(cfg.Transport, defaultTransport()), timeout: cfg.RequestTimeout, client: c}
	c.http = &http.Client{Transport: rt, CheckRedirect: checkRedirect}
	return c, nil
}

// Host returns the base URL the client calls, without credentials.
func (c *Client) Host() string { return c.base }

// MaxRetries is Config.MaxRetries, at least 0.
func (c *Client) MaxRetries() int { return c.maxRetries }

// CheckHost reports whether raw is a host setting New accepts: an absolute
// http(s) URL without credentials, query or fragment; plain http only to a
// loopback host unless allowInsecure.
func CheckHost(raw string, allowInsecure bool) error {
	_, _, err := parseHost(raw, allowInsecure)
	return err
}

// parseHost returns the base URL of a valid host setting, and its host[:port].
func parseHost(raw string, allowInsecure bool) (base, hostPort string, err error) {
	const example = "an absolute http(s) URL such as https://us.posthog.com"
	invalid := func(problem string) (string, string, error) {
		return "", "", &ConfigError{Field: "host", Problem: problem}
	}
	s := strings.TrimSpace(raw)
	if s == "" {
		return invalid("must not be empty; set it to " + example)
	}
	u, err := url.Parse(s)
	if err != nil {
		return invalid("must be " + example + ", not a malformed URL")
	}
	if u.User != nil { // not echoed: it carries credentials
		return invalid("must not contain user credentials; the API key goes in api_key")
	}
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.Hostname() == "" || u.Opaque != "" {
		return invalid(quote(s) + " must be " + example)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return invalid(quote(s) + " must not have a query or fragment")
	}
	if prefix, ok := beforeAPIPath(u.Path); ok {
		return invalid(quote(s) + " names the API's own path, which the provider adds itself: drop the path from " +
			"/api on and set host to " + quote(scheme+"://"+u.Host+prefix))
	}
	if scheme == "http" && !allowInsecure && !isLoopback(u.Hostname()) {
		return invalid(quote(s) + " uses plain http to a host that is not loopback, which would send the API key unencrypted; " +
			"use https, or opt in to plain http explicitly (allow_insecure_http in the provider)")
	}
	return scheme + "://" + u.Host + strings.TrimRight(u.EscapedPath(), "/"), u.Host, nil
}

// beforeAPIPath is the part of a host's path before an /api segment that
// starts the API's own paths (a path that ends there, or goes on to its
// projects or organizations), and whether it has one; a proxy's prefix
// such as /posthog-api is not one.
func beforeAPIPath(p string) (string, bool) {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	for i, seg := range segs {
		if seg == "api" && (i == len(segs)-1 || slices.Contains([]string{"projects", "organizations", "environments"}, segs[i+1])) {
			return strings.TrimRight("/"+strings.Join(segs[:i], "/"), "/"), true
		}
	}
	return "", false
}

func isLoopback(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	ip := net.ParseIP(h)
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || ip != nil && ip.IsLoopback()
}

// checkAPIKey trims the key and refuses one that cannot be sent in a header.
func checkAPIKey(raw string) (string, error) {
	key := strings.TrimSpace(raw)
	if key == "" {
		return "", &ConfigError{Field: "api_key", Problem: "must not be empty or whitespace; set a personal API key"}
	}
	if strings.IndexFunc(key, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return "", &ConfigError{Field: "api_key", Problem: "must not contain whitespace or control characters"}
	}
	return key, nil
}

func quote(s string) string { return strconv.Quote(excerpt(s, hintLength)) }
