package framework

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// TestAddCustomActionError: only the service's refusal of the key itself,
// in its older and its newest words, gets the advice of what to do instead;
// any other 403 is the usual API error.
func TestAddCustomActionError(t *testing.T) {
	t.Parallel()
	refused := fmt.Errorf("running: %w", &client.APIError{Method: "POST", Path: "/x/1/job/", Status: 403,
		Detail: "This action does not support Personal API Key access"})
	today := &client.APIError{Method: "POST", Path: "/x/1/frontend/", Status: 403,
		Detail: "This action does not support personal API key access"}
	scope := &client.APIError{Method: "POST", Path: "/x/1/job/", Status: 403, Detail: "API key missing required scope 'plugin:write'"}
	for _, tc := range []struct {
		name   string
		err    error
		action client.CustomAction
		want   []string
		refuse bool
	}{
		{"job refused", refused, client.ActionJob, []string{"only a browser session", "Run the job from the config's page"}, true},
		{"frontend refused, today's words", today, client.ActionFrontend, []string{"since March 2026", "Open the plugin's page"}, true},
		{"a missing scope", scope, client.ActionJob, []string{"403 Forbidden", "Give the API key the scope"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := client.IsKeyRefused(tc.err); got != tc.refuse {
				t.Errorf("IsKeyRefused = %v, want %v", got, tc.refuse)
			}
			var diags diag.Diagnostics
			AddCustomActionError(&diags, "Could not do it", tc.action, tc.err, nil)
			if len(diags) != 1 || diags[0].Summary() != "Could not do it" {
				t.Fatalf("diagnostics %v", diags)
			}
			for _, w := range tc.want {
				if !strings.Contains(diags[0].Detail(), w) {
					t.Errorf("detail %q does not say %q", diags[0].Detail(), w)
				}
			}
		})
	}
}
