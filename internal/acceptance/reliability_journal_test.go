package acceptance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccReliability_journalKeepsStateConfigs: the create journal never
// hands a config that is in the state to another resource. Three identical
// configs are applied; a fourth identical one, added later, is created anew
// although the journal still holds the first three's creates from a
// process that has ended: the plan marked them as in the state (without
// refreshing, too).
func TestAccReliability_journalKeepsStateConfigs(t *testing.T) {
	t.Parallel()
	host, _ := acctest.IsolatedAPI(t, nil)
	provider := fmt.Sprintf("provider \"pipeline\" {\n  host = %q\n  api_key = %q\n  project_id = \"1\"\n}\n", host, acctest.KeyWrite)
	same := func(n int) string {
		return fmt.Sprintf("\nresource \"pipeline_import_app_config\" \"same\" {\n  count = %d\n  plugin = 4\n}\n", n)
	}
	tf := acctest.NewTerraform(t, provider+same(3), nil)
	if out, err := tf.Run("apply", "-auto-approve", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	tf.WriteConfig(provider + same(4))
	out, err := tf.Run("apply", "-auto-approve", "-no-color", "-refresh=false")
	if err != nil {
		t.Fatalf("second apply: %v\n%s", err, out)
	}
	if strings.Contains(out, "Adopted") {
		t.Errorf("the second apply adopted a config:\n%s", out)
	}
	if err := acctest.StateMatchesAPI(acctest.ClientFor(t, host, localapi.KeyFull), tf.StateIDs(), 4); err != nil {
		t.Error(err)
	}
}
