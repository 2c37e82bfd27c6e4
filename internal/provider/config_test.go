package provider

import (
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

func TestCheckHost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		host     string
		insecure bool
		wantErr  string
	}{
		{host: "https://us.posthog.com"},
		{host: "https://eu.posthog.com/"},
		{host: "https://posthog.example.com:8443/proxy"},
		{host: "http://127.0.0.1:8010"},
		{host: "http://localhost:8010"},
		{host: "http://[::1]:8010"},
		{host: "http://app.localhost"},
		{host: "http://posthog.internal", insecure: true},
		{host: "http://posthog.internal", wantErr: "allow_insecure_http"},
		{host: "http://10.0.0.5", wantErr: "allow_insecure_http"},
		{host: "ftp://us.posthog.com", wantErr: "http(s) URL"},
		{host: "us.posthog.com", wantErr: "http(s) URL"},
		{host: "https://", wantErr: "http(s) URL"},
		{host: "", wantErr: "must not be empty"},
		{host: "https://us.posthog.com?x=1", wantErr: "must not have a query or fragment"},
		{host: "https://user:pw@us.posthog.com", wantErr: "must not contain user credentials"}, //nolint:gosec // a bad value under test
		{host: "https://us posthog.com", wantErr: "http(s) URL"},
	}
	for _, tt := range tests {
		err := client.CheckHost(tt.host, tt.insecure)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("checkHost(%q) = %v, want nil", tt.host, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("checkHost(%q) = %v, want an error mentioning %q", tt.host, err, tt.wantErr)
		}
	}
}
