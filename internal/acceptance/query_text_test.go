package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccQuery_generateConfigPluginText (cases 1 and 5): configuration that
// `terraform query -generate-config-out` writes for configs that leave
// their name and description to a plugin whose own are "" or null (which
// it leaves out), or whose config_schema is in the older object form (an
// apiKey in config), imports them without a change, and the next plan is
// empty, also after the plugins get a name and description where they had
// none (text it wrote stays the configuration's).
func TestAccQuery_generateConfigPluginText(t *testing.T) {
	plugins := map[string][]int64{"transformation": {5, 6, 8}, "import_app": {7, 9}}
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		acctest.SkipBelowTerraform(t, "1.14.0")
		host, local := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, localapi.KeyFull)
		for _, plugin := range plugins[tc.Kind.Name] {
			in := client.RecordInput{Plugin: client.Some(plugin), Order: client.Some(plugin)}
			if plugin >= 8 {
				in.Settings = client.Some(json.RawMessage(`{"apiKey":"k-123"}`))
			}
			if _, err := api.Create(context.Background(), "1", tc.Kind.Collection, in); err != nil {
				t.Fatal(err)
			}
		}
		tf := acctest.NewTerraform(t, fmt.Sprintf("provider \"pipeline\" {\n  host       = %q\n  api_key    = %q\n  project_id = \"1\"\n}\n",
			host, localapi.KeyWrite), nil)
		tf.WriteFile("configs.tfquery.hcl", fmt.Sprintf("list %q \"all\" {\n  provider         = pipeline\n  include_resource = true\n}\n", tc.TypeName))
		out, err := tf.Run("query", "-generate-config-out=generated.tf", "-no-color")
		if err != nil {
			t.Fatalf("terraform query: %v\n%s", err, out)
		}
		generated, err := os.ReadFile(filepath.Join(tf.Dir, "generated.tf"))
		if err != nil {
			t.Fatalf("query wrote no configuration: %v\n%s", err, out)
		}
		local.ResetCounters()
		n := len(plugins[tc.Kind.Name])
		if out, err := tf.Run("apply", "-auto-approve", "-no-color"); err != nil {
			t.Fatalf("apply of the generated configuration: %v\n%s\n%s", err, generated, out)
		} else if !strings.Contains(out, fmt.Sprintf("%d imported, 0 added, 0 changed, 0 destroyed", n)) {
			t.Errorf("apply did not import exactly the listed configs:\n%s\n%s", generated, out)
		}
		if c := local.Counters(); c["create"]+c["update"]+c["delete"] != 0 {
			t.Errorf("importing made writes on the service, want none: %v", c)
		}
		tf.EmptyPlan("after the import")

		// The plugins without a name or description get one.
		for _, p := range local.Plugins() {
			changed := false
			for _, text := range []**string{&p.Name, &p.Description} {
				if *text == nil || **text == "" {
					*text, changed = acctest.Ptr(fmt.Sprintf("Plugin %d v2", p.ID)), true
				}
			}
			if changed {
				if err := local.SetPlugin(p); err != nil {
					t.Fatal(err)
				}
			}
		}
		tf.EmptyPlan("after the plugins' upgrade")
	})
}
