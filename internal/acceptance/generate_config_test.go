package acceptance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccGenerateConfig_importBlocksLeaveOrderOut: the configuration
// `terraform plan -generate-config-out` writes for configs imported by
// import blocks leaves `order` to the service, as the order resource's page
// asks (Terraform 1.14+, which asks the provider for it): on today's
// service, with a key limited to its project, it applies beside an order
// resource that puts the configs in another sequence, importing them and
// writing only the orders, and the next plan is empty (issue 36, point 6).
func TestAccGenerateConfig_importBlocksLeaveOrderOut(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		acctest.SkipBelowTerraform(t, "1.14.0")
		var ids []int64
		host, local := acctest.IsolatedTodayAPI(t, nil, func(c *client.Client) {
			for i, name := range []string{"a", "b", "c"} {
				ids = append(ids, acctest.MustCreate(t, c, tc.Kind.Collection, client.RecordInput{
					Plugin: client.Some(tc.Plugins[i%2]), Order: client.Some(int64(i + 1)), Enabled: client.Some(true), Name: client.Some(name),
				}).ID)
			}
		})
		var imports strings.Builder
		for i, id := range ids {
			fmt.Fprintf(&imports, "\nimport {\n  to = %s.c%d\n  id = \"1/%d\"\n}\n", tc.TypeName, i, id)
		}
		// c, a, b: another sequence than the service's.
		order := fmt.Sprintf("\nresource \"pipeline_%s_order\" \"all\" {\n  config_ids = [%d, %d, %d]\n}\n",
			tc.Kind.Name, ids[2], ids[0], ids[1])
		tf := acctest.NewTerraform(t, todayProvider(host, localapi.KeyWrite)+imports.String()+order, nil)
		out, err := tf.Run("plan", "-generate-config-out=generated.tf", "-no-color")
		if err != nil {
			t.Fatalf("terraform plan -generate-config-out: %v\n%s", err, out)
		}
		generated, err := os.ReadFile(filepath.Join(tf.Dir, "generated.tf"))
		if err != nil {
			t.Fatalf("the plan wrote no configuration: %v\n%s", err, out)
		}
		if n := strings.Count(string(generated), fmt.Sprintf("resource %q", tc.TypeName)); n != len(ids) {
			t.Fatalf("the generated configuration has %d resources, want %d:\n%s", n, len(ids), generated)
		}
		if regexp.MustCompile(`(?m)^\s*order\s*=`).Match(generated) {
			t.Errorf("the generated configuration sets order:\n%s", generated)
		}

		local.ResetCounters()
		if out := mustApply(t, tf); !strings.Contains(out, "3 imported, 1 added, 0 changed, 0 destroyed") {
			t.Errorf("the apply did not import the three configs and create the order:\n%s\n%s", generated, out)
		}
		if c := local.Counters(); c["create"] != 0 || c["update"] > int64(len(ids)) {
			t.Errorf("the apply wrote %v: want no create, and at most an order update per config", c)
		}
		stored, err := local.StoredRecords(1)
		if err != nil {
			t.Fatal(err)
		}
		for want, id := range []int64{ids[2], ids[0], ids[1]} {
			if got := stored[id].Order; got != int64(want+1) {
				t.Errorf("config %d has order %d, want %d", id, got, want+1)
			}
		}
		tf.EmptyPlan("after the generated configuration was applied beside the order resource")
	})
}
