package acceptance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// afterCreateWarning is the summary of the warning that a plugin's settings
// schema cannot be read, so that settings wait for the create's answer.
const afterCreateWarning = "Plugin settings checked after the create"

// TestAccSettingsWarning_onlyBeforeACreate: a key limited to its project
// cannot read the organization's plugin listing, so not the plugin's
// settings schema. The plan of an update with such a key on today's service
// creates nothing and says nothing about a create; the plan of a create,
// where settings do wait for the service's answer (generation 1, which
// still makes configs), says so (issue 36, point 2).
func TestAccSettingsWarning_onlyBeforeACreate(t *testing.T) {
	t.Parallel()
	t.Run("update on today's service", func(t *testing.T) {
		t.Parallel()
		var id int64
		host, _ := acctest.IsolatedTodayAPI(t, nil, existingGeoIP(t, &id))
		config := func(locale string) string {
			return todayProvider(host, localapi.KeyWrite) + fmt.Sprintf(`
import {
  to = pipeline_transformation_config.geoip
  id = "1/%d"
}

resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  enabled = true
  name    = "GeoIP"
  config  = jsonencode({ locale = %q })
}
`, id, locale)
		}
		tf := acctest.NewTerraform(t, config("en"), nil)
		mustApply(t, tf)
		tf.WriteConfig(config("fr"))
		out, code := tf.PlanExitCode()
		if code != 2 || !strings.Contains(out, "0 to add, 1 to change, 0 to destroy") {
			t.Fatalf("the plan (exit %d) is not the one update of the settings:\n%s", code, out)
		}
		if strings.Contains(out, afterCreateWarning) {
			t.Errorf("the plan of an update warns about a create:\n%s", out)
		}
	})
	t.Run("create at generation 1", func(t *testing.T) {
		t.Parallel()
		host, _ := acctest.IsolatedAPI(t, nil)
		tf := acctest.NewTerraform(t, settingsWith(host, localapi.KeyWrite, `  config = jsonencode({ locale = "en" })`), nil)
		out, code := tf.PlanExitCode()
		if code != 2 || !strings.Contains(out, "1 to add, 0 to change, 0 to destroy") {
			t.Fatalf("the plan (exit %d) is not the one create:\n%s", code, out)
		}
		if !strings.Contains(out, afterCreateWarning) {
			t.Errorf("the plan of a create with a key that cannot read the plugin does not say that settings wait for the create:\n%s", out)
		}
	})
}
