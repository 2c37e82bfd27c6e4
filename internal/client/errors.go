package client

import (
	"errors"
	"fmt"
	"net/http"
)

// APIError is an error answer of the service. Type, Code, Detail and Attr
// come from the service's error envelope when the body is one.
type APIError struct {
	Method string
	Path   string
	Status int
	Type   string
	Code   string
	Detail string
	Attr   string
	// RetryAfter is the server's Retry-After in seconds, if any.
	RetryAfter int
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Attr != "" {
		msg += " (attribute " + e.Attr + ")"
	}
	return msg
}

// StatusOf returns the HTTP status of an *APIError in err's chain, or 0.
func StatusOf(err error) int {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Status
	}
	return 0
}

// IsNotFound reports whether err is a 404 answer.
func IsNotFound(err error) bool { return StatusOf(err) == http.StatusNotFound }

// IsForbidden reports whether err is a 403 answer.
func IsForbidden(err error) bool { return StatusOf(err) == http.StatusForbidden }
