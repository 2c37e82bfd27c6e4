package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// client calls the hog function routes of a PostHog host.
type client struct {
	host, key string
	http      *retryablehttp.Client
}

// retried are the answers worth another try; a failed connection is too.
var retried = map[int]bool{
	http.StatusTooManyRequests: true, http.StatusInternalServerError: true, http.StatusBadGateway: true,
	http.StatusServiceUnavailable: true, http.StatusGatewayTimeout: true,
}

func newClient(host, key string) *client {
	rc := retryablehttp.NewClient()
	rc.Logger = nil
	rc.RetryMax = 3
	rc.RetryWaitMin, rc.RetryWaitMax = 200*time.Millisecond, 5*time.Second
	rc.HTTPClient.Timeout = 30 * time.Second
	rc.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if err != nil {
			return true, nil //nolint:nilerr // a failed connection is retried, not returned
		}
		return retried[resp.StatusCode], nil
	}
	// Waits double from RetryWaitMin; a 429's Retry-After, up to
	// RetryWaitMax, when it is longer.
	rc.Backoff = func(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
		wait := retryablehttp.DefaultBackoff(lo, hi, attempt, nil)
		if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
			wait = max(wait, retryablehttp.DefaultBackoff(lo, hi, attempt, resp))
		}
		return min(wait, hi)
	}
	// The last answer, not an error of the library's, when retries run out.
	rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
	// The host as configured: a trailing slash makes paths with two.
	return &client{host: host, key: key, http: rc}
}

// hogFunctionPath is the collection of project's hog functions, or one of
// them when id is not "".
func hogFunctionPath(project, id string) string {
	p := "/api/environments/" + project + "/hog_functions/"
	if id != "" {
		p += id + "/"
	}
	return p
}

// apiError is an answer outside 2xx.
type apiError struct {
	status int
	body   string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("the service answered with status %d: %s", e.status, e.body)
}

// notFound reports whether err is a 404 answer.
func notFound(err error) bool {
	var ae *apiError
	return errors.As(err, &ae) && ae.status == http.StatusNotFound
}

// call sends method to path with body (nil for none) as JSON and decodes
// a 2xx answer into out.
func (c *client) call(ctx context.Context, method, path string, body, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return err
		}
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, method, c.host+path, payload)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &apiError{status: resp.StatusCode, body: string(bytes.TrimSpace(raw))}
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	return nil
}
