package framework

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

func TestAddAPIError(t *testing.T) {
	t.Parallel()
	attrPath := func(attr string) (path.Path, bool) {
		first, _, _ := strings.Cut(attr, "__")
		if first == "filters" || first == "name" {
			return path.Root(first), true
		}
		return path.Empty(), false
	}
	validation := &client.APIError{
		Method: "POST", Path: "/api/projects/1/pipeline_transformation_configs/", Status: 400,
		Type: "validation_error", Code: "required", Detail: "This field is required.", Attr: "filters__events__0__type",
	}
	tests := map[string]struct {
		err        error
		wantPath   string // "" for none
		wantDetail []string
		notDetail  []string // what the detail must not say
	}{
		"attribute error": {
			err:      fmt.Errorf("creating: %w", validation),
			wantPath: "filters",
			wantDetail: []string{"POST /api/projects/1/pipeline_transformation_configs/ answered 400 Bad Request",
				"This field is required.", "filters__events__0__type", "required (validation_error)"},
		},
		"attribute the schema does not have": {
			err:        &client.APIError{Method: "PATCH", Path: "/x/", Status: 400, Detail: "Bad.", Attr: "non_field_errors"},
			wantDetail: []string{"PATCH /x/ answered 400", "Bad.", "non_field_errors"},
		},
		"forbidden: a missing scope": {
			err:        &client.APIError{Method: "PATCH", Path: "/x/", Status: 403, Detail: "API key missing required scope 'plugin:write'"},
			wantDetail: []string{"403 Forbidden", "plugin:write", "Give the API key the scope the service names"},
		},
		"forbidden: a key limited to projects": {
			err: &client.APIError{Method: "GET", Path: "/api/organizations/@current/plugins/", Status: 403,
				Detail: "API keys with scoped projects are only supported on project-based endpoints."},
			wantDetail: []string{"403 Forbidden", "limited to particular projects", "not limited to projects"},
			notDetail:  []string{"lacks the scope"},
		},
		"forbidden: another project": {
			err: &client.APIError{Method: "GET", Path: "/api/projects/2/x/", Status: 403,
				Detail: "API key does not have access to the requested project: ID 2."},
			wantDetail: []string{"403 Forbidden", "limited to other projects"},
			notDetail:  []string{"lacks the scope"},
		},
		"forbidden: another reason": {
			err:        &client.APIError{Method: "GET", Path: "/x/", Status: 403, Detail: "You do not have permission."},
			wantDetail: []string{"403 Forbidden", "lacks the scope"},
		},
		"unauthorized": {
			err:        &client.APIError{Method: "GET", Path: "/x/", Status: 401, Detail: "invalid"},
			wantDetail: []string{"401 Unauthorized", "api_key (or POSTHOG_API_KEY)"},
		},
		"throttled": {
			err:        &client.APIError{Method: "GET", Path: "/x/", Status: 429, RetryAfter: 30},
			wantDetail: []string{"429 Too Many Requests", "Run again after"},
			notDetail:  []string{"timeouts"},
		},
		"throttled past a resource's time limit": {
			err: fmt.Errorf("creating: %w", &client.ThrottledError{Method: "POST", Path: "/x/", Wait: 14 * time.Minute,
				Until: time.Date(2026, 3, 1, 12, 34, 56, 0, time.UTC), Left: 9 * time.Minute,
				Err:   &client.APIError{Method: "POST", Path: "/x/", Status: 429},
				Limit: &TimeLimitError{Limit: 10 * time.Minute, Settable: true}}),
			wantDetail: []string{"POST /x/", "again in 14m0s, at 2026-03-01 12:34:56 UTC", "9m0s left",
				"Run again after 2026-03-01 12:34:56 UTC", "more than 14m0s with the resource's timeouts block", "a key of its own"},
		},
		"throttled past a data source's time limit": {
			err: &client.ThrottledError{Method: "GET", Path: "/x/", Wait: 14 * time.Minute,
				Until: time.Date(2026, 3, 1, 12, 34, 56, 0, time.UTC), Left: 3 * time.Minute, Limit: &TimeLimitError{Limit: 5 * time.Minute}},
			wantDetail: []string{"Run again after 2026-03-01 12:34:56 UTC (a data source has no timeouts block: its read stops after 5m0s)."},
			notDetail:  []string{"the resource's timeouts"},
		},
		"API gone": {
			err: fmt.Errorf("reading: %w", &client.ServiceGoneError{Method: "GET", Path: "/api/projects/1/pipeline_transformation_configs/5/",
				Collection: client.Transformations, CollectionPath: "/api/projects/1/pipeline_transformation_configs/"}),
			wantDetail: []string{"GET /api/projects/1/pipeline_transformation_configs/5/ answered 404 Not Found, and so does " +
				"/api/projects/1/pipeline_transformation_configs/: the service no longer offers the pipeline_transformation_configs API.",
				"Nothing was changed", "removed blocks", "-refresh=false", `"Moving to hog functions"`},
		},
		"timeout": {
			err:        fmt.Errorf("GET /x/: %w", context.DeadlineExceeded),
			wantDetail: []string{"ran out of time", "check that the service answers"},
			notDetail:  []string{"timeouts"},
		},
		"a resource's time limit": {
			err:        &client.TransportError{Method: "GET", Path: "/x/", Err: &TimeLimitError{Limit: time.Minute, Settable: true}},
			wantDetail: []string{"GET /x/: the operation's time limit of 1m0s ran out", "with the resource's timeouts block"},
		},
		"a data source's time limit": {
			err:        &client.TransportError{Method: "GET", Path: "/x/", Err: &TimeLimitError{Limit: 5 * time.Minute}},
			wantDetail: []string{"a data source has no timeouts block: its read stops after 5m0s"},
			notDetail:  []string{"the resource's timeouts"},
		},
		"no answer within request_timeout": {
			err:        &client.TransportError{Method: "GET", Path: "/x/", Attempts: 2, Err: &client.AttemptTimeoutError{Timeout: 2 * time.Second}},
			wantDetail: []string{"no answer within 2s", "(gave up after 2 attempts)", "did not answer in time", "request_timeout"},
			notDetail:  []string{"timeouts"},
		},
		"other": {
			err:        errors.New("dial tcp 127.0.0.1:1: connection refused"),
			wantDetail: []string{"connection refused"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			AddAPIError(&diags, "Could not create transformation config", tt.err, attrPath)
			if len(diags) != 1 || diags[0].Summary() != "Could not create transformation config" {
				t.Fatalf("diagnostics %v", diags)
			}
			withPath, ok := diags[0].(diag.DiagnosticWithPath)
			switch {
			case tt.wantPath == "" && ok:
				t.Errorf("diagnostic on %s, want none", withPath.Path())
			case tt.wantPath != "" && (!ok || withPath.Path().String() != tt.wantPath):
				t.Errorf("diagnostic path %v, want %s", diags[0], tt.wantPath)
			}
			for _, w := range tt.wantDetail {
				if !strings.Contains(diags[0].Detail(), w) {
					t.Errorf("detail %q does not mention %q", diags[0].Detail(), w)
				}
			}
			for _, w := range tt.notDetail {
				if strings.Contains(diags[0].Detail(), w) {
					t.Errorf("detail %q says %q", diags[0].Detail(), w)
				}
			}
		})
	}
}

func TestValidProjectID(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]bool{
		"1": true, "12345": true, "@current": true,
		"": false, "0": false, "01": false, "-1": false, "1.5": false, "abc": false, "@Current": false, " 1": false,
	} {
		if got := ValidProjectID(id); got != want {
			t.Errorf("ValidProjectID(%q) = %v, want %v", id, got, want)
		}
	}
}
