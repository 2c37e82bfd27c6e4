// Package client is the one API client of the provider: it knows HTTP and the
// pipeline config API, and nothing of Terraform.
//
// One Client is shared by every resource of a Terraform run and is safe for
// concurrent use. It retries what is safe to retry: 429 for any method,
// until the caller's deadline, after the Retry-After it asks for; 502, 503,
// 504 and transport errors for GET, PATCH and DELETE; POST (create, job,
// migrate) only when the request provably never reached the service, so a
// record is never created twice; 500 never. What waiting cannot mend fails
// at once, the error naming the host and what to check (unreachable.go): a
// host DNS does not know, a TLS certificate or handshake this client cannot
// accept; a refused connection after one quick retry. A 429 pauses every
// request of the client and slows its pace, which grows back while requests
// succeed, never above the configured requests per minute (package
// throttle). It
// decodes the service's error envelope, or whatever else an error answer
// holds (package answertext), into *APIError (other failures are *TransportError, and
// *ThrottledError when the service throttles past the deadline) and logs
// each HTTP attempt through tflog without the API key. It tells the answers
// of later service generations apart (generations.go, collections.go): a
// create that saved nothing, an API that is gone, an action that is gone,
// records without filters. It also reads the organization's plugin
// listings (plugins.go), which the provider needs to find a plugin.
package client

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/answertext"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

// Defaults New applies to zero fields of Config.
const (
	DefaultUserAgent    = "terraform-provider-pipeline"
	DefaultRetryWaitMin = 500 * time.Millisecond
	DefaultRetryWaitMax = 30 * time.Second
	DefaultPageSize     = 100
)

// DefaultMaxRetries is the provider's default max_retries. New does not
// apply it to a zero MaxRetries, which means no retry of a 5xx or a
// transport error.
const DefaultMaxRetries = 5

// Config configures a Client.
type Config struct {
	// Host is the service's base URL, e.g. https://us.posthog.com. A path
	// prefix (https://example.com/posthog) is kept.
	Host string
	// APIKey is the personal API key sent as a Bearer token. Never logged.
	APIKey string
	// UserAgent is sent on every request; DefaultUserAgent when empty.
	UserAgent string
	// MaxRetries bounds the retries of one request after a 502, 503, 504
	// or a transport error (0 or negative = no such retry). A 429 is not
	// counted: it is retried until ctx's deadline.
	MaxRetries int
	// RetryWaitMin and RetryWaitMax bound the backoff between those
	// retries; RetryWaitMax also caps such an answer's Retry-After. A 429's
	// Retry-After is always waited in full. Zero means DefaultRetryWaitMin /
	// DefaultRetryWaitMax.
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	// RequestTimeout bounds one HTTP attempt, reading the body included
	// (0 = none; the caller's ctx still applies).
	RequestTimeout time.Duration
	// RequestsPerMinute is the client's pace over every HTTP attempt,
	// retries included, and the most it returns to after the service
	// throttled it: no 60-second window sees more. 0 = no pace (a 429 still
	// pauses every request until its Retry-After).
	RequestsPerMinute int
	// PageSize is the limit ListAll asks for per page; DefaultPageSize
	// when 0.
	PageSize int
	// AllowInsecureHTTP permits a plain http Host that is not loopback.
	// Without it New refuses one, since the key would travel unencrypted.
	AllowInsecureHTTP bool
	// Transport, when set, replaces the default HTTP transport (tests).
	Transport http.RoundTripper
}

// Client calls the pipeline config API.
type Client struct {
	base       string // scheme://host[/prefix], no trailing slash
	hostPort   string // the host of base, with its port if it names one
	apiKey     string
	userAgent  string
	maxRetries int
	waitMin    time.Duration
	waitMax    time.Duration
	pageSize   int
	http       *http.Client
	clock      serviceClock
	throttle   *throttle.Throttle
	colls      collections
	current    currentProject
}

// New validates cfg and returns a client. Its errors are *ConfigError
// naming the setting at fault; they never contain the key.
func New(cfg Config) (*Client, error) { return newClient(cfg, throttle.RealClock{}) }

func newClient(cfg Config, clk throttle.Clock) (*Client, error) {
	base, err := parseHost(cfg.Host, cfg.AllowInsecureHTTP)
	if err != nil {
		return nil, err
	}
	key, err := checkAPIKey(cfg.APIKey)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(base)
	if err != nil { // parseHost has parsed it
		return nil, &ConfigError{Field: "host", Problem: "must be an absolute http(s) URL"}
	}
	c := &Client{
		base:       base,
		hostPort:   u.Host,
		apiKey:     key,
		userAgent:  strings.TrimSpace(cfg.UserAgent),
		maxRetries: cfg.MaxRetries,
		waitMin:    cfg.RetryWaitMin,
		waitMax:    cfg.RetryWaitMax,
		pageSize:   cfg.PageSize,
	}
	if c.userAgent == "" {
		c.userAgent = DefaultUserAgent
	}
	if c.maxRetries < 0 {
		c.maxRetries = 0
	}
	if c.waitMin <= 0 {
		c.waitMin = DefaultRetryWaitMin
	}
	if c.waitMax <= 0 {
		c.waitMax = DefaultRetryWaitMax
	}
	if c.waitMax < c.waitMin {
		c.waitMax = c.waitMin
	}
	if c.pageSize <= 0 {
		c.pageSize = DefaultPageSize
	}
	c.colls.init()

	next := cfg.Transport
	if next == nil {
		next = defaultTransport()
	}
	c.throttle = throttle.New(cfg.RequestsPerMinute, func(streak int) time.Duration {
		return backoff(c.waitMin, c.waitMax, streak, nil)
	}, clk)
	rt := &attemptTransport{next: next, timeout: cfg.RequestTimeout, client: c}
	c.http = &http.Client{Transport: rt, CheckRedirect: checkRedirect}
	return c, nil
}

// Host returns the base URL the client calls (scheme://host[/prefix],
// without a trailing slash). It names the service, e.g. in a record of
// creates under way; it carries no credentials.
func (c *Client) Host() string { return c.base }

// MaxRetries returns how often one request is retried after a 5xx or a
// transport error (Config.MaxRetries, at least 0).
func (c *Client) MaxRetries() int { return c.maxRetries }

// CheckHost reports whether raw is a usable host setting: an absolute http(s)
// URL without credentials, query or fragment; plain http only to a loopback
// host unless allowInsecure. The provider uses it to refuse a bad host at
// validate time with the same rules New applies.
func CheckHost(raw string, allowInsecure bool) error {
	_, err := parseHost(raw, allowInsecure)
	return err
}

// parseHost validates the host setting and returns the base URL without a
// trailing slash.
func parseHost(raw string, allowInsecure bool) (string, error) {
	const example = "an absolute http(s) URL such as https://us.posthog.com"
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", &ConfigError{Field: "host", Problem: "must not be empty; set it to " + example}
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", &ConfigError{Field: "host", Problem: "must be " + example + ", not a malformed URL"}
	}
	if u.User != nil {
		// Not echoed: it carries credentials.
		return "", &ConfigError{Field: "host", Problem: "must not contain user credentials; the API key goes in api_key"}
	}
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.Hostname() == "" || u.Opaque != "" {
		return "", &ConfigError{Field: "host", Problem: quote(s) + " must be " + example}
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return "", &ConfigError{Field: "host", Problem: quote(s) + " must not have a query or fragment"}
	}
	if scheme == "http" && !allowInsecure && !isLoopback(u.Hostname()) {
		return "", &ConfigError{
			Field: "host",
			Problem: quote(s) + " uses plain http to a host that is not loopback, which would send the API key unencrypted; " +
				"use https, or opt in to plain http explicitly (allow_insecure_http in the provider)",
		}
	}
	return scheme + "://" + u.Host + strings.TrimRight(u.EscapedPath(), "/"), nil
}

func isLoopback(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// checkAPIKey trims the key and refuses one that cannot be sent in a
// header. Errors never contain the key.
func checkAPIKey(raw string) (string, error) {
	key := strings.TrimSpace(raw)
	if key == "" {
		return "", &ConfigError{Field: "api_key", Problem: "must not be empty or whitespace; set a personal API key"}
	}
	for _, r := range key {
		if r <= ' ' || r == 0x7f {
			return "", &ConfigError{Field: "api_key", Problem: "must not contain whitespace or control characters"}
		}
	}
	return key, nil
}

func quote(s string) string { return strconv.Quote(answertext.Excerpt(s, answertext.HintLength)) }
