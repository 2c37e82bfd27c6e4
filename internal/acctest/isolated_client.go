package acctest

import (
	"os"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// ClientFor returns a client of host (e.g. an IsolatedAPI) with key, for
// setting records up and checking them behind Terraform's back.
func ClientFor(t testing.TB, host, key string) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{Host: host, APIKey: key, UserAgent: "acctest", MaxRetries: 3})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// EnvLegacyKey, set to 1 against a live instance, says that its
// POSTHOG_API_KEY is a legacy personal API key without scopes, the only kind
// the service lets call rearrange, job and frontend.
const EnvLegacyKey = "PIPELINE_ACC_LEGACY_KEY"

// LegacyKey returns a key that may call the service's custom actions: the
// local API's legacy key, or the live instance's when EnvLegacyKey says it
// is one (the test is skipped otherwise).
func LegacyKey(t testing.TB) string {
	t.Helper()
	if !HasLegacyKey() {
		t.Skipf("needs a legacy API key without scopes: set %s=1 if POSTHOG_API_KEY is one", EnvLegacyKey)
	}
	return KeyFull
}

// HasLegacyKey reports whether the tests have a legacy key (LegacyKey).
func HasLegacyKey() bool { return !IsLive() || os.Getenv(EnvLegacyKey) == "1" }
