// Package client is the one API client of the provider: it knows HTTP and the
// pipeline config API, and nothing of Terraform.
package client

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// STUB: the bodies in this file are placeholders for the client helper to replace.
var errNotImplemented = errors.New("not implemented")

// Config configures a Client.
type Config struct {
	// Host is the service's base URL, e.g. https://us.posthog.com.
	Host string
	// APIKey is the personal API key sent as a Bearer token. Never logged.
	APIKey string
	// UserAgent is sent on every request.
	UserAgent string
	// MaxRetries bounds the retries of one request (0 = no retry).
	MaxRetries int
	// RetryWaitMin and RetryWaitMax bound the backoff between retries;
	// RetryWaitMax also caps a server's Retry-After.
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	// RequestTimeout bounds one HTTP attempt (0 = none).
	RequestTimeout time.Duration
	// RequestsPerMinute is a client-side rate limit (0 = unlimited).
	RequestsPerMinute int
	// Transport, when set, replaces the default HTTP transport (tests).
	Transport http.RoundTripper
}

// Client calls the pipeline config API.
type Client struct {
	cfg Config
}

// New validates cfg and returns a client.
func New(cfg Config) (*Client, error) { return &Client{cfg: cfg}, nil }

// List returns one page of a collection.
func (c *Client) List(ctx context.Context, project string, coll Collection, limit, offset int) (*Page, error) {
	return nil, errNotImplemented
}

// ListAll returns every record of a collection, across all pages.
func (c *Client) ListAll(ctx context.Context, project string, coll Collection) ([]Record, error) {
	return nil, errNotImplemented
}

// Get retrieves one record.
func (c *Client) Get(ctx context.Context, project string, coll Collection, id int64) (*Record, error) {
	return nil, errNotImplemented
}

// Create creates a record; it is never sent twice.
func (c *Client) Create(ctx context.Context, project string, coll Collection, in RecordInput) (*Record, error) {
	return nil, errNotImplemented
}

// Update partially updates a record.
func (c *Client) Update(ctx context.Context, project string, coll Collection, id int64, in RecordInput) (*Record, error) {
	return nil, errNotImplemented
}

// Delete calls DELETE on a record (on the live service this only disables it).
func (c *Client) Delete(ctx context.Context, project string, coll Collection, id int64) error {
	return errNotImplemented
}

// Frontend retrieves a record's frontend source.
func (c *Client) Frontend(ctx context.Context, project string, coll Collection, id int64) (*Frontend, error) {
	return nil, errNotImplemented
}

// RunJob starts a job of a record's plugin.
func (c *Client) RunJob(ctx context.Context, project string, coll Collection, id int64, job Job) error {
	return errNotImplemented
}

// Rearrange sets the order of enabled configs by id and returns every enabled
// config of the project.
func (c *Client) Rearrange(ctx context.Context, project string, coll Collection, orders map[int64]int64) ([]Record, error) {
	return nil, errNotImplemented
}
