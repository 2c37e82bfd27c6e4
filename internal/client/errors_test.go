package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestErrorBodies(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		want        APIError // Method, Path and Attempts are checked apart
	}{
		{
			name: "envelope with every field", status: 400, contentType: "application/json",
			body: envelope("validation_error", "max_length", "Ensure this field has no more than 400 characters.", "name"),
			want: APIError{Status: 400, Type: "validation_error", Code: "max_length", Detail: "Ensure this field has no more than 400 characters.", Attr: "name"},
		},
		{
			name: "envelope with null attr and nested attr name", status: 400, contentType: "application/json",
			body: `{"type":"validation_error","code":"required","detail":"This field is required.","attr":"filters__events__0__type"}`,
			want: APIError{Status: 400, Type: "validation_error", Code: "required", Detail: "This field is required.", Attr: "filters__events__0__type"},
		},
		{
			name: "not found", status: 404, contentType: "application/json",
			body: `{"type":"invalid_request","code":"not_found","detail":"Not found.","attr":null}`,
			want: APIError{Status: 404, Type: "invalid_request", Code: "not_found", Detail: "Not found."},
		},
		{
			name: "forbidden", status: 403, contentType: "application/json",
			body: envelope("authentication_error", "permission_denied", "This action does not support Personal API Key access", ""),
			want: APIError{Status: 403, Type: "authentication_error", Code: "permission_denied", Detail: "This action does not support Personal API Key access"},
		},
		{
			name: "html from a proxy", status: 502, contentType: "text/html",
			body: "<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>\n<body><center><h1>502 Bad   Gateway</h1></center>\n<hr><center>nginx &amp; friends</center><script>alert(1)</script></body></html>",
			want: APIError{Status: 502, Detail: "502 Bad Gateway nginx & friends"},
		},
		{
			name: "long html is cut short", status: 500, contentType: "text/html",
			body: "<html><body><p>" + strings.Repeat("word ", 500) + "</p></body></html>",
			want: APIError{Status: 500, Detail: strings.TrimSpace(strings.Repeat("word ", 40)) + "…"},
		},
		{
			name: "empty body", status: 500, contentType: "",
			body: "",
			want: APIError{Status: 500, Detail: "Internal Server Error"},
		},
		{
			name: "plain text", status: 503, contentType: "text/plain",
			body: "  upstream connect error\n or disconnect/reset before headers  ",
			want: APIError{Status: 503, Detail: "upstream connect error or disconnect/reset before headers"},
		},
		{
			name: "json message object", status: 500, contentType: "application/json",
			body: `{"message": "internal failure"}`,
			want: APIError{Status: 500, Detail: "internal failure"},
		},
		{
			name: "plain DRF field errors", status: 400, contentType: "application/json",
			body: `{"order": ["A valid integer is required."]}`,
			want: APIError{Status: 400, Detail: "A valid integer is required.", Attr: "order"},
		},
		{
			name: "json object that is no error shape", status: 418, contentType: "application/json",
			body: `{"a": {"b": 1}}`,
			want: APIError{Status: 418, Detail: `{"a":{"b":1}}`},
		},
		{
			name: "json array of messages", status: 400, contentType: "application/json",
			body: `["first problem", "second problem"]`,
			want: APIError{Status: 400, Detail: "first problem; second problem"},
		},
		{
			name: "detail that is not a string", status: 400, contentType: "application/json",
			body: `{"type":"validation_error","code":"invalid","detail":{"name":["bad"]},"attr":"name"}`,
			want: APIError{Status: 400, Type: "validation_error", Code: "invalid", Detail: `{"name":["bad"]}`, Attr: "name"},
		},
		{
			name: "truncated json", status: 500, contentType: "application/json",
			body: `{"type": "server_er`,
			want: APIError{Status: 500, Detail: `{"type": "server_er`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
				if answerProbe(w, r) {
					return
				}
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				}
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			})
			c := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 0 })
			_, err := c.Get(context.Background(), "1", ImportApps, 9)
			var apiErr *APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("want *APIError, got %T %v", err, err)
			}
			got := *apiErr
			if got.Method != "GET" || got.Path != "/api/projects/1/pipeline_import_apps_configs/9/" || got.Attempts != 1 {
				t.Fatalf("method/path/attempts: %+v", got)
			}
			got.Method, got.Path, got.Attempts = "", "", 0
			if got != tt.want {
				t.Fatalf("\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestAPIErrorMessage(t *testing.T) {
	e := &APIError{Method: "POST", Path: "/api/projects/1/x/", Status: 400, Detail: "Ensure this field has no more than 400 characters.", Attr: "name", Attempts: 1}
	want := "POST /api/projects/1/x/: 400 Bad Request: Ensure this field has no more than 400 characters. (attribute name)"
	if e.Error() != want {
		t.Fatalf("\n got %q\nwant %q", e.Error(), want)
	}
	e = &APIError{Method: "GET", Path: "/p/", Status: 500, Detail: "Internal Server Error", Attempts: 1}
	if e.Error() != "GET /p/: 500 Internal Server Error" {
		t.Fatalf("status text should not repeat: %q", e.Error())
	}
}

func TestStatusHelpers(t *testing.T) {
	wrap := func(status int) error {
		return fmt.Errorf("reading record 5: %w", &APIError{Status: status})
	}
	checks := []struct {
		name string
		fn   func(error) bool
		yes  int
		no   int
	}{
		{"IsNotFound", IsNotFound, 404, 403},
		{"IsForbidden", IsForbidden, 403, 401},
		{"MayHaveApplied", MayHaveApplied, 504, 400},
	}
	for _, ch := range checks {
		if !ch.fn(wrap(ch.yes)) || ch.fn(wrap(ch.no)) || ch.fn(errors.New("other")) || ch.fn(nil) {
			t.Errorf("%s misjudges", ch.name)
		}
	}
	if StatusOf(wrap(409)) != 409 || StatusOf(errors.New("x")) != 0 {
		t.Error("StatusOf")
	}
}

func TestRedirectedWriteIsAnError(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			writeJSON(w, 200, `{"count": 0, "results": []}`)
			return
		}
		http.Redirect(w, r, "https://elsewhere.example/api/", http.StatusMovedPermanently)
	})
	c := newTestClient(t, srv.URL)
	_, err := c.Create(context.Background(), "1", Transformations, RecordInput{Plugin: Some[int64](1), Order: Some[int64](1)})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 301 || !strings.Contains(apiErr.Detail, "https://elsewhere.example/api/") {
		t.Fatalf("want a 301 error naming the target, got %v", err)
	}
	if srv.count() != 1 {
		t.Fatalf("the redirect must not be followed for a POST, server saw %d", srv.count())
	}
}
