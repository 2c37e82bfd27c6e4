package acceptance

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
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
// name, with its setting keys, secret keys and hog function template; with
// a key limited to projects, which may not read the listing, from the
// project's configs.
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
		testPluginsWithProjectLimitedKey(t)
	})
}

// testPluginsWithProjectLimitedKey: on today's service the organization's
// listing refuses a key limited to projects, and the data source then
// lists the plugins the configs of the provider's project use, each as the
// listing shows it, and warns of what it left out. Configs of another
// project, and soft-deleted ones, show no plugin.
func testPluginsWithProjectLimitedKey(t *testing.T) {
	host, _ := acctest.IsolatedTodayAPI(t, nil, func(c *client.Client) {
		ctx := context.Background()
		for _, in := range []struct {
			project string
			plugin  int64
			deleted bool
		}{{"1", 1, false}, {"1", 1, false}, {"1", 2, false}, {"1", 6, false}, {"1", 5, true}, {"2", 8, false}} {
			rec, err := c.Create(ctx, in.project, client.Transformations, client.RecordInput{
				Plugin: client.Some(in.plugin), Order: client.Some(int64(1)),
			})
			if err == nil && in.deleted {
				_, err = c.Update(ctx, in.project, client.Transformations, rec.ID, client.RecordInput{Deleted: client.Some(true)})
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	})
	config := func(project string) string {
		return fmt.Sprintf(`provider "pipeline" {
  host       = %[1]q
  api_key    = %[2]q
  project_id = %[4]q
}

provider "pipeline" {
  alias      = "organization"
  host       = %[1]q
  api_key    = %[3]q
  project_id = "1"
}

data "pipeline_transformation_plugins" "limited" {}

data "pipeline_transformation_plugins" "listing" {
  provider = pipeline.organization
}

output "limited" {
  value = data.pipeline_transformation_plugins.limited.plugins
}

output "listing" {
  value = [for p in data.pipeline_transformation_plugins.listing.plugins : p if contains([1, 2, 6], p.id)]
}

output "by_name" {
  value = data.pipeline_transformation_plugins.limited.by_name
}
`, host, localapi.KeyWrite, localapi.KeyOrg, project)
	}
	tf := acctest.NewTerraform(t, config("1"), nil)
	out := strings.Join(strings.Fields(mustApply(t, tf)), " ")
	for _, want := range []string{"Warning: Plugins read from the transformation configs of project 1",
		`answered 403 "API keys with scoped projects are only supported on project-based endpoints."`,
		"plugins holds the 3 transformation plugin(s) that the transformation configs of project 1 use",
		"Left out: plugins that no transformation config of this project uses"} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply does not say %q:\n%s", want, out)
		}
	}
	outputs := map[string]string{}
	for _, name := range []string{"limited", "listing", "by_name"} {
		o, err := tf.Run("output", "-json", name)
		if err != nil {
			t.Fatalf("output %s: %v\n%s", name, err, o)
		}
		outputs[name] = strings.TrimSpace(o)
	}
	if outputs["limited"] != outputs["listing"] || !strings.Contains(outputs["limited"], `"id":6`) {
		t.Errorf("the plugins of project 1's configs are\n%s\nwant plugins 1, 2 and 6 as the listing shows them:\n%s",
			outputs["limited"], outputs["listing"])
	}
	if outputs["by_name"] != `{"GeoIP":1,"Property Filter":2}` {
		t.Errorf("by_name is %s, want GeoIP and Property Filter", outputs["by_name"])
	}

	// A project the key may not use: the error says why each way failed.
	tf.WriteConfig(config("2"))
	plan, code := tf.PlanExitCode()
	plan = strings.Join(strings.Fields(plan), " ")
	for _, want := range []string{"This API key is limited to particular projects",
		"Reading the plugins from the transformation configs of project 2 (the provider's project_id) instead failed too",
		"The API key is limited to other projects"} {
		if code != 1 || !strings.Contains(plan, want) {
			t.Errorf("the plan (exit %d, want 1) does not say %q:\n%s", code, want, plan)
		}
	}
}
