// Package localapitest starts the local pipeline-config API for tests.
// It lives apart from localapi so that the server does not import testing.
package localapitest

import (
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// NewTestServer starts a local API on 127.0.0.1 with a free port and stops
// it when the test ends. Its URL field is the base URL to configure a
// client with (host), e.g. http://127.0.0.1:41234.
func NewTestServer(t testing.TB, opts localapi.Options) *localapi.Running {
	t.Helper()
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	srv, err := localapi.Start(opts)
	if err != nil {
		t.Fatalf("start local API: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("stop local API: %v", err)
		}
	})
	return srv
}
