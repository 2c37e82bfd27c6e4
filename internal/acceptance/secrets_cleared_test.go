package acceptance

import (
	"fmt"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// TestAccSecrets_removedKeyCleared: a secret key removed from
// secret_config_wo (left out, or set to null) is cleared on the service
// when the version changes; the service alone would keep it (issue 24,
// case 6).
func TestAccSecrets_removedKeyCleared(t *testing.T) {
	t.Parallel()
	for name, removed := range map[string]string{"left out": "{}", "set to null": "{ api_key = null }"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			host, local := acctest.IsolatedAPI(t, nil)
			config := func(secret string, version int) string {
				return recoveryProvider(host) + fmt.Sprintf(`
resource "pipeline_transformation_config" "geoip" {
  plugin                   = 1
  config                   = jsonencode({ locale = "en" })
  secret_config_wo         = jsonencode(%s)
  secret_config_wo_version = %d
}
`, secret, version)
			}
			tf := acctest.NewTerraform(t, config(`{ api_key = "s3cret" }`, 1), nil)
			mustApply(t, tf)
			id := onlyID(t, tf.StateIDs())
			if got := storedSecret(t, local, id); got != "s3cret" {
				t.Fatalf("the secret stored is %q", got)
			}
			tf.WriteConfig(config(removed, 2))
			mustApply(t, tf)
			if got := storedSettings(t, local, id); got["api_key"] != "" || got["locale"] != "en" {
				t.Errorf("after the secret's removal the service holds %v, want api_key cleared and locale kept", got)
			}
			tf.EmptyPlan("after the secret's removal")
		})
	}
}
