package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// Against the service as it is today (the notes' "The service as it is in
// 2026"; localapi Options.Today): creates are gone, every personal API key
// has scopes, plugins are found in the organization's listing (issue 25).

// todayProvider is a provider block for host with key.
func todayProvider(host, key string) string {
	return fmt.Sprintf(`provider "pipeline" {
  host       = %q
  api_key    = %q
  project_id = "1"
}
`, host, key)
}

// existingGeoIP makes, before the service moves to today, one GeoIP config
// with a locale setting and a secret; it returns its id through id.
func existingGeoIP(t *testing.T, id *int64) func(*client.Client) {
	return func(c *client.Client) {
		rec, err := c.Create(context.Background(), "1", client.Transformations, client.RecordInput{
			Plugin: client.Some(int64(1)), Order: client.Some(int64(1)), Enabled: client.Some(true), Name: client.Some("GeoIP"),
			Settings: client.Some(json.RawMessage(`{"locale":"en","api_key":"s3cret"}`)),
		})
		if err != nil {
			t.Fatal(err)
		}
		*id = rec.ID
	}
}

// TestAccToday_createsSendNothing: the README's first example of old (a
// config created with settings) sends no create and makes no hog function,
// however often it is applied: refused at plan time once the service has
// shown its configs, and at apply, by the service, with nothing made, in a
// project without configs (issue 25, case 1).
func TestAccToday_createsSendNothing(t *testing.T) {
	t.Parallel()
	create := `
resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  enabled = true
  config  = jsonencode({ locale = "en" })
}
`
	for _, tc := range []struct {
		name   string
		before func(*testing.T, *int64) func(*client.Client)
		want   string
	}{
		{"a project with configs", existingGeoIP, "so nothing was sent"},
		{"a project without configs", nil, "Plugin creation is no longer possible"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var id int64
			var before func(*client.Client)
			if tc.before != nil {
				before = tc.before(t, &id)
			}
			host, local := acctest.IsolatedTodayAPI(t, nil, before)
			tf := acctest.NewTerraform(t, todayProvider(host, localapi.KeyOrg)+create, nil)
			local.ResetCounters()
			for range 2 {
				out, err := tf.Run("apply", "-auto-approve", "-no-color")
				flat := strings.Join(strings.Fields(out), " ")
				if err == nil || !strings.Contains(flat, "The service no longer creates transformation configs") ||
					!strings.Contains(flat, tc.want) {
					t.Fatalf("the apply (%v) is not refused saying why:\n%s", err, out)
				}
			}
			if made := local.HogFunctions(); len(made) != 0 {
				t.Errorf("hog functions %+v, want none", made)
			}
			c := local.Counters()
			if c["update"]+c["delete"] != 0 || tc.before != nil && c["create"] != 0 {
				t.Errorf("requests that write: %v", c)
			}
		})
	}
}

// TestAccToday_existingConfigWithScopedKey: a config that exists is
// imported, changed and ordered with a scoped key (every key is), its
// plugin found by name; the frontend, which only browser sessions may
// read, is refused at plan time with what to do instead (issue 25, cases 2
// and 3).
func TestAccToday_existingConfigWithScopedKey(t *testing.T) {
	t.Parallel()
	var id int64
	host, local := acctest.IsolatedTodayAPI(t, nil, existingGeoIP(t, &id))
	config := func(locale string) string {
		return todayProvider(host, localapi.KeyFull) + fmt.Sprintf(`
data "pipeline_transformation_plugins" "all" {}

import {
  to = pipeline_transformation_config.geoip
  id = "1/%d"
}

resource "pipeline_transformation_config" "geoip" {
  plugin  = data.pipeline_transformation_plugins.all.by_name["GeoIP"]
  enabled = true
  name    = "GeoIP"
  config  = jsonencode({ locale = %q })
}

resource "pipeline_transformation_order" "all" {
  config_ids = [pipeline_transformation_config.geoip.id]
}
`, id, locale)
	}
	tf := acctest.NewTerraform(t, config("en"), nil)
	local.ResetCounters()
	mustApply(t, tf)
	tf.WriteConfig(config("fr"))
	mustApply(t, tf)
	if got := storedSettings(t, local, id); got["locale"] != "fr" || got["api_key"] != "s3cret" {
		t.Errorf("the config holds %v, want locale fr and its secret kept", got)
	}
	if c := local.Counters(); c["create"] != 0 || c["rearrange"] != 0 {
		t.Errorf("requests %v: want no create and no rearrange", c)
	}
	tf.EmptyPlan("after the change")

	// The frontend, which only browser sessions may read.
	frontend := fmt.Sprintf(`data "pipeline_transformation_config_frontend" "f" { config_id = %d }`, id)
	tf.WriteConfig(config("fr") + "\n" + frontend + "\n")
	local.ResetCounters()
	out, code := tf.PlanExitCode()
	flat := strings.Join(strings.Fields(out), " ")
	if code != 1 || !strings.Contains(flat, "Open the plugin's page") || !strings.Contains(flat, "only a browser session") {
		t.Errorf("the plan of the frontend (exit %d) is not refused saying what to do:\n%s", code, out)
	}
	if c := local.Counters(); c["create"]+c["update"]+c["delete"] != 0 {
		t.Errorf("the refused plan wrote: %v", c)
	}
}

// TestAccToday_settingsCheckedAtPlan: a typo in config is warned about and
// a plain key in secret_config_wo refused at plan time, with no request
// that writes (issue 25, case 4).
func TestAccToday_settingsCheckedAtPlan(t *testing.T) {
	t.Parallel()
	var id int64
	host, local := acctest.IsolatedTodayAPI(t, nil, existingGeoIP(t, &id))
	resource := func(args string) string {
		return todayProvider(host, localapi.KeyOrg) + fmt.Sprintf(`
import {
  to = pipeline_transformation_config.geoip
  id = "1/%d"
}

resource "pipeline_transformation_config" "geoip" {
  plugin = 1
  name   = "GeoIP"
%s
}
`, id, args)
	}
	tf := acctest.NewTerraform(t, resource(`  config = jsonencode({ lcoale = "en" })`), nil)
	local.ResetCounters()
	// A warning: the plan (the import, and the settings' change) goes on.
	out, code := tf.PlanExitCode()
	if flat := strings.Join(strings.Fields(out), " "); code != 2 || !strings.Contains(flat, `Unknown setting "lcoale"`) ||
		!strings.Contains(flat, `did you mean "locale"?`) || !strings.Contains(flat, "1 to import, 0 to add, 1 to change") {
		t.Errorf("the plan (exit %d) does not warn of the typo and go on:\n%s", code, out)
	}
	tf.WriteConfig(resource(`  config                   = jsonencode({})
  secret_config_wo         = jsonencode({ locale = "en" })
  secret_config_wo_version = 1`))
	out, code = tf.PlanExitCode()
	if code != 1 || !strings.Contains(out, "Non-secret setting in secret_config_wo") {
		t.Errorf("the plan (exit %d) does not refuse the plain key in secret_config_wo:\n%s", code, out)
	}
	if c := local.Counters(); c["create"]+c["update"]+c["delete"] != 0 {
		t.Errorf("the plans wrote: %v", c)
	}
}

// TestAccToday_jobAndRecords: the job route is gone (a JSON 404, "Endpoint
// not found."), records come without delivery_rate_24h: the job is refused
// with what to do instead, and the data sources read configs as they are
// (issue 25, case 5).
func TestAccToday_jobAndRecords(t *testing.T) {
	t.Parallel()
	var id int64
	host, local := acctest.IsolatedTodayAPI(t, nil, existingGeoIP(t, &id))
	tf := acctest.NewTerraform(t, todayProvider(host, localapi.KeyOrg)+fmt.Sprintf(`
data "pipeline_transformation_config" "geoip" {
  id = %d
}

# In an object: Terraform keeps no output whose value is null.
output "record" {
  value = {
    name = data.pipeline_transformation_config.geoip.name
    rate = data.pipeline_transformation_config.geoip.delivery_rate_24h
  }
}
`, id), nil)
	mustApply(t, tf)
	out, err := tf.Run("output", "-json", "record")
	if want := `{"name":"GeoIP","rate":null}`; err != nil || strings.TrimSpace(out) != want {
		t.Errorf("output record is %s (%v), want %s: the record as the service shows it, without a delivery rate", out, err, want)
	}
	tf.WriteConfig(todayProvider(host, localapi.KeyOrg) + fmt.Sprintf(`
resource "pipeline_transformation_job" "reprocess" {
  config_id = %d
  job_type  = "Reprocess"
  payload   = jsonencode({ since = "2024-01-01" })
}
`, id))
	local.ResetCounters()
	out, err = tf.Run("apply", "-auto-approve", "-no-color")
	flat := strings.Join(strings.Fields(out), " ")
	if err == nil || !strings.Contains(flat, "The service no longer runs plugin jobs") {
		t.Errorf("the job (%v) is not refused saying why:\n%s", err, out)
	}
	if len(local.Jobs()) != 0 {
		t.Errorf("jobs ran: %v", local.Jobs())
	}
}
