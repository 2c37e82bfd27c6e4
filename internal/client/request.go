package client

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

// maxAnswerBytes bounds an answer: 30 times the largest page the service
// sends, with room for a plugin's frontend.
const maxAnswerBytes = 16 << 20

const contentTypeJSON = "application/json"

// apiRequest is one API call before it is sent.
type apiRequest struct {
	method              string
	path                string // from /api/..., with its query
	body                []byte // sent whole on every attempt; nil: no body
	contentType, accept string
	target              target // what call resolves a 404 against
}

// apiResponse is a 2xx answer, read whole.
type apiResponse struct {
	status int
	header http.Header
	body   []byte
}

// do sends r with retries and returns its 2xx answer; any other answer is
// an *APIError, no answer a *TransportError.
func (c *Client) do(ctx context.Context, r apiRequest) (*apiResponse, error) {
	ctx = tflog.MaskLogStrings(ctx, c.apiKey) // even within an error's text
	st := &callState{method: r.method, path: r.path, start: c.throttle.Now()}
	ctx = context.WithValue(ctx, callStateKey{}, st)

	var raw any // an untyped nil keeps GETs free of an empty chunked body
	if r.body != nil {
		raw = r.body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, c.base+r.path, raw)
	if err != nil {
		return nil, fmt.Errorf("%s %s: building the request: %w", r.method, r.path, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", cmp.Or(r.accept, contentTypeJSON))
	if r.body != nil {
		req.Header.Set("Content-Type", r.contentType)
	}

	// The final answer's body is read inside the retry loop, so that one cut
	// short meets the retry policy like any other transport error.
	var body []byte
	req.SetResponseHandler(func(resp *http.Response) (err error) {
		body, err = io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
		switch {
		case err != nil:
			st.maybeSent.Store(true)
			return fmt.Errorf("reading the answer: %w", err)
		case len(body) > maxAnswerBytes:
			return &AnswerTooLargeError{Method: r.method, Path: r.path, Limit: maxAnswerBytes}
		}
		return nil
	})

	rc := &retryablehttp.Client{
		HTTPClient: c.http,
		RetryMax:   math.MaxInt32, // the retry policy alone decides how often (429s are not counted)
		CheckRetry: c.retryPolicy(st),
		Backoff: func(_, _ time.Duration, _ int, resp *http.Response) time.Duration {
			if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
				// The throttle holds the request until the pause ends.
				tflog.Debug(ctx, fmt.Sprintf("retrying %s %s after 429 once the pause ends", r.method, r.path))
				return 0
			}
			d, why := backoff(c.waitMin, c.waitMax, st.failures-1, resp), "a transport error"
			switch {
			case resp != nil:
				why = resp.Status
			case st.lastErr != nil:
				why = plainError(st.lastErr).Error()
				if connRefused(st.lastErr) { // the one quick retry
					d = c.waitMin
				}
			}
			tflog.Info(ctx, fmt.Sprintf("retrying %s %s in %s after %s (retry %d of %d)",
				r.method, r.path, d.Round(time.Millisecond), why, st.failures, c.maxRetries))
			return d
		},
		// The last answer or error as it is, not the library's "giving up".
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}

	resp, err := rc.Do(req)
	if resp != nil {
		defer resp.Body.Close()
	}
	if err != nil {
		var closed *throttle.ClosedError
		var big *AnswerTooLargeError
		switch {
		case errors.As(err, &closed): // held back by a pause that ends too late
			return nil, st.throttledError(ctx, closed, nil)
		case errors.As(err, &big): // never retried: the same request brings the same answer
			return nil, big
		case resp != nil && (resp.StatusCode < 400 || resp.StatusCode > 499):
			// The request arrived; only a 4xx proves it was not applied.
			st.maybeSent.Store(true)
		}
		err = plainError(err)
		if ctx.Err() != nil {
			err = context.Cause(ctx) // what ended the call: its time limit (WithTimeLimit) says how to give more
		}
		return nil, &TransportError{Method: r.method, Path: r.path, Attempts: int(st.attempts.Load()),
			MaybeSent: st.maybeSent.Load(), Hint: netHint(err, c.hostPort), Err: err}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := newAPIError(r.method, r.path, resp, body, int(st.attempts.Load()), c.apiKey)
		if st.throttledPast != nil && resp.StatusCode == http.StatusTooManyRequests {
			return nil, st.throttledError(ctx, st.throttledPast, apiErr)
		}
		return nil, apiErr
	}
	return &apiResponse{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

// limitKey holds the error that ends a call's time limit (WithTimeLimit).
type limitKey struct{}

// WithTimeLimit bounds ctx by d, whose end is limit (a context.DeadlineExceeded
// that says what set the limit and how to give more time): the error of a
// call the limit ends is limit, and a *ThrottledError carries it.
func WithTimeLimit(ctx context.Context, d time.Duration, limit error) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(context.WithValue(ctx, limitKey{}, limit), d, limit)
}

// plainError is err without its *url.Error, which repeats the full URL.
func plainError(err error) error {
	var uErr *url.Error
	if errors.As(err, &uErr) {
		return uErr.Err
	}
	return err
}

// decodeError reports a 2xx answer that is not what was expected, and its start.
func (c *Client) decodeError(r apiRequest, resp *apiResponse, err error) error {
	got := "an empty body"
	if len(resp.body) > 0 {
		got = quote(redact(answerLine(string(resp.body)), c.apiKey))
	}
	return fmt.Errorf("%s %s: the %d answer is not the expected JSON (%w); got %s", r.method, r.path, resp.status, err, got)
}

// getJSON GETs path and decodes its answer, a T.
func getJSON[T any](ctx context.Context, c *Client, path string) (*T, error) {
	r := apiRequest{method: http.MethodGet, path: path}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	var v T
	if err := json.Unmarshal(resp.body, &v); err != nil {
		return nil, c.decodeError(r, resp, err)
	}
	return &v, nil
}
