package localapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// apiError is an error answer in the live envelope {type, code, detail,
// attr}. Only the first error is reported, as the live service does.
type apiError struct {
	Status int
	Type   string
	Code   string
	Detail string
	// Attr names the field, nested names joined with "__"; empty is null.
	Attr string
	// RetryAfter, when positive, is sent as the Retry-After header.
	RetryAfter int
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%d %s/%s: %s (attr %q)", e.Status, e.Type, e.Code, e.Detail, e.Attr)
}

// envelope is the JSON body of every error answer.
type envelope struct {
	Type   string  `json:"type"`
	Code   string  `json:"code"`
	Detail string  `json:"detail"`
	Attr   *string `json:"attr"`
}

func writeError(w http.ResponseWriter, e *apiError) {
	body := envelope{Type: e.Type, Code: e.Code, Detail: e.Detail}
	if e.Attr != "" {
		body.Attr = &e.Attr
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="api"`)
	}
	writeJSON(w, e.Status, body)
}

// writeJSON answers v compactly, without HTML escaping, as the live
// renderer does.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf, err := marshalJSON(v)
	if err != nil {
		status, buf = http.StatusInternalServerError, []byte(`{"type":"server_error","code":"error","detail":"A server error occurred.","attr":null}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(buf)))
	w.WriteHeader(status)
	_, _ = w.Write(buf)
}

func errNotAuthenticated() *apiError {
	return &apiError{Status: http.StatusUnauthorized, Type: "authentication_error", Code: "not_authenticated",
		Detail: "Authentication credentials were not provided."}
}

func errBadKey() *apiError {
	return &apiError{Status: http.StatusUnauthorized, Type: "authentication_error", Code: "authentication_failed",
		Detail: "Personal API key found in request Authorization header is invalid."}
}

func errPermission(detail string) *apiError {
	return &apiError{Status: http.StatusForbidden, Type: "authentication_error", Code: "permission_denied", Detail: detail}
}

func errNotFound(detail string) *apiError {
	return &apiError{Status: http.StatusNotFound, Type: "invalid_request", Code: "not_found", Detail: detail}
}

func errRecordNotFound() *apiError { return errNotFound("Not found.") }

// errNoRoute answers a path no route of the service's generation serves:
// the 404 envelope, whose detail today's service words as its router does
// (the notes' "The service as it is in 2026": "Endpoint not found.").
func errNoRoute(svc service) *apiError {
	if svc.isToday() {
		return errNotFound(DetailEndpointNotFound)
	}
	return errRecordNotFound()
}

func errProjectNotFound() *apiError { return errNotFound("Project not found.") }

func errMethodNotAllowed(method string) *apiError {
	return &apiError{Status: http.StatusMethodNotAllowed, Type: "invalid_request", Code: "method_not_allowed",
		Detail: fmt.Sprintf("Method %q not allowed.", method)}
}

func errUnsupportedMedia(mediaType string) *apiError {
	return &apiError{Status: http.StatusUnsupportedMediaType, Type: "invalid_request", Code: "unsupported_media_type",
		Detail: fmt.Sprintf("Unsupported media type %q in request.", mediaType)}
}

func errValidation(code, detail, attr string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Type: "validation_error", Code: code, Detail: detail, Attr: attr}
}

func errParse(detail string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Type: "validation_error", Code: "parse_error", Detail: detail}
}

// errServer is the live service's answer to an unhandled exception (an
// unknown id on DELETE, a non-integer key in rearrange).
func errServer() *apiError {
	return &apiError{Status: http.StatusInternalServerError, Type: "server_error", Code: "error",
		Detail: "A server error occurred."}
}

func errThrottled(wait int) *apiError {
	return &apiError{Status: http.StatusTooManyRequests, Type: "throttled_error", Code: "throttled",
		Detail:     fmt.Sprintf("Request was throttled. Expected available in %d seconds.", wait),
		RetryAfter: wait}
}

// The refusals of personal API keys and of paths, as the service words
// them.
const (
	// DetailNoKeyAccess refuses a key with scopes a custom action
	// (rearrange, job, frontend, migrate, activity) or a method the route
	// does not serve, until 2026.
	DetailNoKeyAccess = "This action does not support Personal API Key access"
	// DetailNoKeyAccessToday is the same refusal in today's words (the
	// notes' "The service as it is in 2026"), to every key.
	DetailNoKeyAccessToday = "This action does not support personal API key access"
	// DetailEndpointNotFound answers, on today's service, job and every
	// path it has no route for.
	DetailEndpointNotFound = "Endpoint not found."
	// DetailNoPluginAccess refuses a create (and rearrange) in an
	// organization whose plugin access is below "config"
	// (Options.NoPluginAccess).
	DetailNoPluginAccess = "Plugin configuration is not available for the current organization!"
	// DetailPluginAccessInsufficient refuses such an organization its
	// plugin listings.
	DetailPluginAccessInsufficient = "Your organization's plugin access level is insufficient."
)

// Common validation details, worded as the live service (DRF) words them.
const (
	msgRequired   = "This field is required."
	msgNull       = "This field may not be null."
	msgNotInteger = "A valid integer is required."
	msgNotBool    = "Must be a valid boolean."
	msgNotString  = "Not a valid string."
)

func errRequired(attr string) *apiError  { return errValidation("required", msgRequired, attr) }
func errNullField(attr string) *apiError { return errValidation("null", msgNull, attr) }

// errInvalid is DRF's "invalid" code, which the live handler renames.
func errInvalid(detail, attr string) *apiError { return errValidation("invalid_input", detail, attr) }

// pyType names a decoded JSON value's Python type, for DRF-worded details.
func pyType(v any) string {
	switch v := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case json.Number:
		if pyNumber(v).IsInt() {
			return "int"
		}
		return "float"
	case string:
		return "str"
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}
