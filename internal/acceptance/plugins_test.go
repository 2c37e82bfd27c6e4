package acceptance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// findByName is a config whose plugin is found by name in the plugin
// listing, under a provider with key.
func findByName(host, key string) string {
	return fmt.Sprintf(`provider "pipeline" {
  host       = %q
  api_key    = %q
  project_id = "1"
}

data "pipeline_transformation_plugins" "all" {}

resource "pipeline_transformation_config" "geoip" {
  plugin = data.pipeline_transformation_plugins.all.by_name["GeoIP"]
  config = jsonencode({ locale = "en" })
}

output "geoip" {
  value = [for p in data.pipeline_transformation_plugins.all.plugins : p if p.name == "GeoIP"][0]
}
`, host, key)
}

// TestAccPlugins_findByName: the plugin data source finds a plugin's id by
// name, with its setting keys, secret keys and hog function template; a
// key limited to projects, which may not read the listing, is told which
// key would.
func TestAccPlugins_findByName(t *testing.T) {
	t.Parallel()
	t.Run("key that reads plugins", func(t *testing.T) {
		t.Parallel()
		host, _ := acctest.IsolatedAPI(t, nil)
		tf := acctest.NewTerraform(t, findByName(host, localapi.KeyOrg), nil)
		mustApply(t, tf)
		state := tf.State()
		if got := string(state["pipeline_transformation_config.geoip"].Attributes["plugin"]); got != "1" {
			t.Errorf("the config's plugin is %s, want GeoIP's 1", got)
		}
		out, err := tf.Run("output", "-json", "geoip")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"secret_keys":["api_key"]`, `"setting_keys":["api_key","locale"]`,
			`"hog_function_template_id":"plugin-posthog-plugin-geoip"`, `"url":"https://github.com/PostHog/posthog-plugin-geoip"`} {
			if !strings.Contains(out, want) {
				t.Errorf("the plugin %s does not hold %s", out, want)
			}
		}
	})
	t.Run("key limited to projects", func(t *testing.T) {
		t.Parallel()
		host, _ := acctest.IsolatedAPI(t, nil)
		tf := acctest.NewTerraform(t, findByName(host, localapi.KeyWrite), nil)
		out, code := tf.PlanExitCode()
		flat := strings.Join(strings.Fields(out), " ")
		if code != 1 || !strings.Contains(flat, "This API key is limited to particular projects") ||
			!strings.Contains(flat, "not limited to projects, with the plugin:read scope") {
			t.Fatalf("the plan (exit %d) does not say which key would work:\n%s", code, out)
		}
	})
}
