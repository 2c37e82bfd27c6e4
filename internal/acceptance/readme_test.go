package acceptance

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccReadme_firstExample applies the README's first example
// (examples/demo/main.tf, which make demo applies too) against the service
// as it is today, with a key limited to the project: it sends no create, makes no hog function, and writes
// only the one update its plan shows; the next plan is empty.
func TestAccReadme_firstExample(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedTodayAPI(t, nil, func(c *client.Client) {
		for _, in := range []client.RecordInput{
			{Plugin: client.Some(int64(1)), Order: client.Some(int64(1)), Name: client.Some("GeoIP enrichment")},
			{Plugin: client.Some(int64(2)), Order: client.Some(int64(2)), Enabled: client.Some(true)},
		} {
			if _, err := c.Create(context.Background(), "1", client.Transformations, in); err != nil {
				t.Fatal(err)
			}
		}
	})
	_, file, _, _ := runtime.Caller(0)
	example, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "examples", "demo", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	// The example carries its own required_providers; the working
	// directory's is written by NewTerraform.
	body := regexp.MustCompile(`(?s)terraform \{.*?\n\}\n`).ReplaceAllString(string(example), "")
	// The key PostHog users are told to make: plugin:read and plugin:write,
	// limited to their project, which the plugin listing refuses.
	tf := acctest.NewTerraform(t, body, map[string]string{
		"POSTHOG_HOST": host, "POSTHOG_API_KEY": localapi.KeyWrite, "POSTHOG_PROJECT_ID": "1",
	})
	local.ResetCounters()
	out, code := tf.PlanExitCode()
	if code != 2 || !strings.Contains(out, "1 to import, 0 to add, 1 to change, 0 to destroy") ||
		!strings.Contains(out, "Plugins read from the transformation configs of project 1") {
		t.Fatalf("the plan (exit %d) is not the import and the one change, with the plugins of the project's configs:\n%s", code, out)
	}
	mustApply(t, tf)
	c := local.Counters()
	if c["create"] != 0 || c["update"] != 1 || c["delete"] != 0 {
		t.Errorf("the apply wrote %v, want the one update the plan showed", c)
	}
	if made := local.HogFunctions(); len(made) != 0 {
		t.Errorf("hog functions %+v, want none", made)
	}
	rec, err := acctest.ClientFor(t, host, localapi.KeyFull).Get(context.Background(), "1", client.Transformations, 1)
	if err != nil {
		t.Fatalf("reading config 1 after the apply: %v", err)
	}
	if !rec.Enabled || !strings.Contains(string(rec.Settings), `"locale":"en"`) {
		t.Errorf("config 1 is enabled %v with settings %s, want it enabled with locale en", rec.Enabled, rec.Settings)
	}
	tf.EmptyPlan("after the first example")
}
