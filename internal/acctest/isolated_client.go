package acctest

import (
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
