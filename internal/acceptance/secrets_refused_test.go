package acceptance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// settingsWith is a GeoIP config (secret api_key, plain locale) with the
// given arguments, under a provider with key.
func settingsWith(host, key, args string) string {
	return fmt.Sprintf(`provider "pipeline" {
  host       = %q
  api_key    = %q
  project_id = "1"
}

resource "pipeline_transformation_config" "geoip" {
  plugin = 1
%s
}
`, host, key, args)
}

// plainKeyArgs put a plain setting in secret_config_wo.
const plainKeyArgs = `  secret_config_wo         = jsonencode({ locale = "en-secret-place" })
  secret_config_wo_version = 1`

// TestAccSecrets_plainKeyRefusedBeforeSending: a plain setting put in
// secret_config_wo is refused at plan time, with nothing sent that writes,
// when the key may read the plugin's schema; with a key limited to
// projects, the create is sent without its settings and refused from the
// answer, so the value never reaches the service (issue 24, case 6).
func TestAccSecrets_plainKeyRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	t.Run("key that reads plugins", func(t *testing.T) {
		t.Parallel()
		host, local := acctest.IsolatedAPI(t, nil)
		tf := acctest.NewTerraform(t, settingsWith(host, localapi.KeyOrg, plainKeyArgs), nil)
		out, code := tf.PlanExitCode()
		if code != 1 || !strings.Contains(out, "Non-secret setting in secret_config_wo") {
			t.Fatalf("the plan (exit %d) does not refuse the plain key in secret_config_wo:\n%s", code, out)
		}
		if c := local.Counters(); c["create"]+c["update"]+c["delete"] != 0 {
			t.Errorf("the plan wrote: %v", c)
		}
	})
	t.Run("key limited to projects", func(t *testing.T) {
		t.Parallel()
		host, local := acctest.IsolatedAPI(t, nil)
		tf := acctest.NewTerraform(t, settingsWith(host, localapi.KeyWrite, plainKeyArgs), nil)
		out, err := tf.Run("apply", "-auto-approve", "-no-color")
		if err == nil || !strings.Contains(out, "Non-secret setting in secret_config_wo") ||
			!strings.Contains(out, "Plugin settings checked after the create") {
			t.Fatalf("the apply (%v) does not refuse the plain key after saying why it could not before:\n%s", err, out)
		}
		if active := activeIDs(t, host); len(active) != 0 {
			t.Errorf("configs %v are active", active)
		}
		// Every record of every project, the one created and deleted again
		// included, as the store holds it.
		if c := local.Counters(); c["create"] != 1 {
			t.Errorf("%d creates, want the one whose answer told", c["create"])
		}
		records := 0
		for _, project := range localapi.DefaultProjects() {
			stored, err := local.StoredRecords(project)
			if err != nil {
				t.Fatal(err)
			}
			for id, rec := range stored {
				records++
				if strings.Contains(string(rec.Config), "en-secret-place") {
					t.Errorf("config %d of project %d stores the value: %s", id, project, rec.Config)
				}
			}
		}
		if records != 1 {
			t.Errorf("the service holds %d configs, want the one created and deleted again", records)
		}
	})
}

// TestAccSettings_unknownKeyWarned: a setting the plugin does not know (a
// typo) is warned about at plan time with the key it is close to, before
// anything is sent.
func TestAccSettings_unknownKeyWarned(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPI(t, nil)
	tf := acctest.NewTerraform(t, settingsWith(host, localapi.KeyOrg, `  config = jsonencode({ lcoale = "en" })`), nil)
	out, code := tf.PlanExitCode()
	flat := strings.Join(strings.Fields(out), " ")
	if code != 2 || !strings.Contains(flat, `Unknown setting "lcoale"`) || !strings.Contains(flat, `did you mean "locale"?`) {
		t.Fatalf("the plan (exit %d) does not warn of the typo:\n%s", code, out)
	}
	if c := local.Counters(); c["create"]+c["update"]+c["delete"] != 0 {
		t.Errorf("the plan wrote: %v", c)
	}
}
