package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// Settings set on the service and absent from the configuration are shown
// in the plan, and removed by the apply as planned; never removed by an
// update that planned something else (issue 24, case 4).

// settingsByMode is a GeoIP config whose settings come from var.mode.
func settingsByMode(host, mode string) string {
	return recoveryProvider(host) + fmt.Sprintf(`
variable "mode" {
  default = %q
}

resource "pipeline_transformation_config" "geoip" {
  plugin = 1
  config = jsonencode({ mode = var.mode })
}
`, mode)
}

// storedSettings is the settings config id stores, secrets included.
func storedSettings(t *testing.T, local *localapi.Server, id int64) map[string]any {
	t.Helper()
	raw, err := local.StoredConfig(1, id)
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal(raw, &settings); err != nil {
		t.Fatal(err)
	}
	return settings
}

// TestAccSettings_addedOnTheService: a setting added in the UI makes the
// next plan show its removal; a change of another setting plans and
// applies its removal too, and nothing else.
func TestAccSettings_addedOnTheService(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPI(t, nil)
	tf := acctest.NewTerraform(t, settingsByMode(host, "a"), nil)
	mustApply(t, tf)
	id := onlyID(t, tf.StateIDs())

	// A colleague adds locale in the UI (which sends every setting).
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	if _, err := api.Update(context.Background(), "1", client.Transformations, id,
		client.RecordInput{Settings: client.Some(json.RawMessage(`{"mode":"a","locale":"de"}`))}); err != nil {
		t.Fatal(err)
	}
	out, code := tf.PlanExitCode()
	if code != 2 || !strings.Contains(out, "locale") {
		t.Fatalf("after locale was added on the service, the plan (exit %d) does not show it:\n%s", code, out)
	}

	tf.WriteConfig(settingsByMode(host, "b"))
	out, code = tf.PlanExitCode("-out=tfplan")
	if code != 2 || !strings.Contains(out, "locale") || !strings.Contains(out, `"b"`) {
		t.Fatalf("the plan of mode b (exit %d) does not show locale's removal and mode's change:\n%s", code, out)
	}
	mustRun(t, tf, "apply", "-no-color", "tfplan")
	if got := storedSettings(t, local, id); len(got) != 2 || got["mode"] != "b" || got["api_key"] != nil {
		t.Errorf("the service holds %v, want mode b alone (and the unset secret)", got)
	}
	tf.EmptyPlan("after the apply")
}

// TestAccSettings_secretTurnedPlain: a plugin upgrade that stops marking a
// secret setting secret is shown: a configuration that sets it in
// secret_config_wo is refused on that attribute, and one that leaves it to
// the UI plans its removal from config.
func TestAccSettings_secretTurnedPlain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, secret string
		want         []string
		code         int
	}{
		{"set in secret_config_wo", `
  secret_config_wo         = jsonencode({ api_key = "s3cret" })
  secret_config_wo_version = 1`, []string{"Non-secret setting in secret_config_wo", "api_key"}, 1},
		{"set in the UI", "", []string{"api_key", "s3cret"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			host, local := acctest.IsolatedAPI(t, nil)
			config := recoveryProvider(host) + fmt.Sprintf(`
resource "pipeline_transformation_config" "geoip" {
  plugin = 1
  config = jsonencode({ locale = "en" })%s
}
`, tc.secret)
			tf := acctest.NewTerraform(t, config, nil)
			mustApply(t, tf)
			id := onlyID(t, tf.StateIDs())
			if tc.secret == "" {
				api := acctest.ClientFor(t, host, localapi.KeyFull)
				if _, err := api.Update(context.Background(), "1", client.Transformations, id,
					client.RecordInput{Settings: client.Some(json.RawMessage(`{"locale":"en","api_key":"s3cret"}`))}); err != nil {
					t.Fatal(err)
				}
				tf.EmptyPlan("a secret set in the UI")
			}
			upgraded := pluginByID(t, local, 1)
			upgraded.ConfigSchema.Fields = slices.Clone(upgraded.ConfigSchema.Fields)
			for i := range upgraded.ConfigSchema.Fields {
				upgraded.ConfigSchema.Fields[i].Secret = false
			}
			if err := local.SetPlugin(upgraded); err != nil {
				t.Fatal(err)
			}
			out, code := tf.PlanExitCode()
			for _, w := range tc.want {
				if code != tc.code || !strings.Contains(out, w) {
					t.Fatalf("after the upgrade, the plan (exit %d, want %d) does not say %q:\n%s", code, tc.code, w, out)
				}
			}
			if got := storedSettings(t, local, id); got["api_key"] != "s3cret" {
				t.Errorf("the plan changed the service: %v", got)
			}
		})
	}
}

// pluginByID returns the local API's plugin id.
func pluginByID(t *testing.T, local *localapi.Server, id int64) localapi.Plugin {
	t.Helper()
	plugins := local.Plugins()
	i := slices.IndexFunc(plugins, func(p localapi.Plugin) bool { return p.ID == id })
	if i < 0 {
		t.Fatalf("no plugin %d", id)
	}
	return plugins[i]
}
