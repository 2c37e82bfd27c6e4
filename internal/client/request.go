package client

import (
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

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/answertext"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

// maxAnswerBytes bounds how much of one answer is read: 30 times the
// largest page the service sends (100 records of a few KB, without
// plugin_info), with room for a plugin's frontend bundle. An answer past it
// is not one the service meant, and reading on only grows the provider.
const maxAnswerBytes = 16 << 20

const contentTypeJSON = "application/json"

// apiRequest is one API call before it is sent.
type apiRequest struct {
	method string
	// path starts at /api/... and may carry a query.
	path string
	// body is sent as is on every attempt; nil means no body.
	body        []byte
	contentType string
	accept      string
	// target is what a 404 of the request is resolved against (call); zero
	// for the collection's own route, whose 404 says it all.
	target target
}

// apiResponse is a 2xx answer, read whole.
type apiResponse struct {
	status int
	header http.Header
	body   []byte
}

// do sends r with retries and returns its 2xx answer. Any other answer is an
// *APIError (the last one, once retries are spent); no answer at all is a
// *TransportError.
func (c *Client) do(ctx context.Context, r apiRequest) (*apiResponse, error) {
	ctx = maskKey(ctx, c.apiKey)
	st := &callState{method: r.method, path: r.path, start: c.throttle.Now()}
	ctx = withCallState(ctx, st)

	var raw any // an untyped nil keeps GETs free of an empty chunked body
	if r.body != nil {
		raw = r.body // a []byte is re-read from the start on every attempt
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, c.base+r.path, raw)
	if err != nil {
		return nil, fmt.Errorf("%s %s: building the request: %w", r.method, r.path, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("User-Agent", c.userAgent)
	accept := r.accept
	if accept == "" {
		accept = contentTypeJSON
	}
	req.Header.Set("Accept", accept)
	if r.body != nil {
		req.Header.Set("Content-Type", r.contentType)
	}

	// Read the body inside the retry loop, so that an answer cut short is
	// handled by the retry policy like any other transport error.
	var body []byte
	var bodyOf *http.Response // the answer body belongs to
	req.SetResponseHandler(func(resp *http.Response) error {
		bodyOf = resp
		var readErr error
		body, readErr = readBody(resp)
		if readErr != nil {
			st.maybeSent.Store(true)
		}
		return readErr // an *AnswerTooLargeError is not retried (permanentTransportError)
	})

	rc := &retryablehttp.Client{
		HTTPClient: c.http,
		// No Logger: the transport logs every attempt once (logAttempt),
		// and the library's lines only repeated those.
		Logger:       nil,
		RetryWaitMin: c.waitMin,
		RetryWaitMax: c.waitMax,
		// The retry policy decides alone: a 429 is retried until the
		// deadline, anything else at most c.maxRetries times.
		RetryMax:   math.MaxInt32,
		CheckRetry: c.retryPolicy(st),
		Backoff: func(lo, hi time.Duration, _ int, resp *http.Response) time.Duration {
			if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
				// The throttle holds every request until the pause ends;
				// the pause itself is logged once, as a warning.
				tflog.Debug(ctx, fmt.Sprintf("retrying %s %s after 429 once the pause ends", r.method, r.path))
				return 0
			}
			d := backoff(lo, hi, st.failures-1, resp)
			why := "a transport error"
			switch {
			case resp != nil:
				why = resp.Status
			case st.lastErr != nil:
				why = plainError(st.lastErr).Error()
				if connRefused(st.lastErr) { // the one quick retry
					d = lo
				}
			}
			tflog.Info(ctx, fmt.Sprintf("retrying %s %s in %s after %s (retry %d of %d)",
				r.method, r.path, d.Round(time.Millisecond), why, st.failures, c.maxRetries))
			return d
		},
		// Hand back the last answer or error as it is, not retryablehttp's
		// "giving up" error, so the caller sees the service's envelope.
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}

	resp, err := rc.Do(req)
	if resp != nil {
		defer resp.Body.Close() // read whole below, or given up on
	}
	if err != nil {
		var closed *throttle.ClosedError
		if errors.As(err, &closed) { // held back by a pause that ends too late
			return nil, st.throttledError(closed, nil)
		}
		if big := tooLarge(err, r); big != nil {
			return nil, big
		}
		// An answer that came before ctx ended or its body broke means the
		// request arrived; only a 4xx proves it was not applied.
		if resp != nil && (resp.StatusCode < 400 || resp.StatusCode > 499) {
			st.maybeSent.Store(true)
		}
		return nil, c.transportError(st, err)
	}
	if bodyOf != resp { // retries spent: the last answer is still unread
		if body, err = readBody(resp); err != nil {
			if big := tooLarge(err, r); big != nil {
				return nil, big
			}
			st.maybeSent.Store(true)
			return nil, c.transportError(st, err)
		}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := newAPIError(r.method, r.path, resp, body, int(st.attempts.Load()), c.apiKey)
		if st.throttledPast != nil && resp.StatusCode == http.StatusTooManyRequests {
			return nil, st.throttledError(st.throttledPast, apiErr)
		}
		return nil, apiErr
	}
	return &apiResponse{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

func (c *Client) transportError(st *callState, err error) error {
	err = plainError(err)
	return &TransportError{
		Method:    st.method,
		Path:      st.path,
		Attempts:  int(st.attempts.Load()),
		MaybeSent: st.maybeSent.Load(),
		Hint:      unreachable(err, c.hostPort),
		Err:       err,
	}
}

// plainError is err without its *url.Error, which repeats the full URL:
// method and path are said already.
func plainError(err error) error {
	var uErr *url.Error
	if errors.As(err, &uErr) {
		return uErr.Err
	}
	return err
}

// decodeJSON decodes a 2xx answer into v.
func (c *Client) decodeJSON(r apiRequest, resp *apiResponse, v any) error {
	if err := json.Unmarshal(resp.body, v); err != nil {
		return c.decodeError(r, resp, err)
	}
	return nil
}

// decodeError reports a 2xx answer that is not what was expected, showing
// the start of what came instead.
func (c *Client) decodeError(r apiRequest, resp *apiResponse, err error) error {
	got := "an empty body"
	if len(resp.body) > 0 {
		got = quote(redact(answertext.Line(string(resp.body)), c.apiKey))
	}
	return fmt.Errorf("%s %s: the %d answer is not the expected JSON (%w); got %s", r.method, r.path, resp.status, err, got)
}

func readBody(resp *http.Response) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	if len(b) > maxAnswerBytes {
		return nil, &AnswerTooLargeError{Limit: maxAnswerBytes}
	}
	return b, nil
}

// tooLarge returns the *AnswerTooLargeError in err's chain, naming r.
func tooLarge(err error, r apiRequest) *AnswerTooLargeError {
	var big *AnswerTooLargeError
	if !errors.As(err, &big) {
		return nil
	}
	big.Method, big.Path = r.method, r.path
	return big
}
