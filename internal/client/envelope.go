package client

import (
	"math"
	"net/http"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/answertext"
)

// newAPIError builds the error for a non-2xx answer whose body was read.
func newAPIError(method, path string, resp *http.Response, body []byte, attempts int, key string) *APIError {
	e := &APIError{Method: method, Path: path, Status: resp.StatusCode, Attempts: attempts}
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		e.RetryAfter = int(math.Ceil(d.Seconds()))
	}
	if resp.StatusCode/100 == 3 {
		// Redirects are followed for GET only; a write that is redirected is
		// not resent, and the likely cause is the host setting.
		e.Detail = "the service redirected the request"
		if loc := resp.Header.Get("Location"); loc != "" {
			e.Detail += " to " + answertext.Excerpt(loc, answertext.HintLength)
		}
		e.Detail += "; set host to the address the service answers on (scheme and domain)"
	} else {
		f := answertext.Decode(body)
		e.Type, e.Code, e.Detail, e.Attr = f.Type, f.Code, f.Detail, f.Attr
	}
	if e.Detail == "" {
		e.Detail = http.StatusText(resp.StatusCode)
	}
	e.Type, e.Code = redact(e.Type, key), redact(e.Code, key)
	e.Detail, e.Attr = redact(e.Detail, key), redact(e.Attr, key)
	return e
}
