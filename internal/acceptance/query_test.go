package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccQuery_generateConfig takes configs made outside Terraform under
// management the way Terraform 1.14+ offers: `terraform query
// -generate-config-out` lists them and writes their configuration with
// import blocks; applying it imports every listed config and changes
// nothing on the service, and the next plan is empty. One config has an
// empty secret setting and another one never set, which list pages show
// unmasked: the generated configuration leaves them out, as `config` must.
func TestAccQuery_generateConfig(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		acctest.SkipBelowTerraform(t, "1.14.0")
		host, local := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, localapi.KeyFull)
		k, plugins, configType := tc.Kind, tc.Plugins, tc.TypeName
		sp := acctest.SecretPlugins[k.Name]
		ctx := context.Background()
		inputs := []client.RecordInput{
			{Plugin: client.Some(plugins[0]), Order: client.Some(int64(1)), Enabled: client.Some(true), Name: client.Some("first"),
				Filters: client.Some(json.RawMessage(`{"events":[{"id":"$pageview","type":"events"}]}`))},
			{Plugin: client.Some(plugins[1]), Order: client.Some(int64(2)), Description: client.Some("second, described")},
			// The secret setting never set, then set to "".
			{Plugin: client.Some(sp.Plugin), Order: client.Some(int64(3)), Settings: client.Some(json.RawMessage(fmt.Sprintf(`{%q:"en"}`, sp.Plain)))},
			{Plugin: client.Some(sp.Plugin), Order: client.Some(int64(5)), Settings: client.Some(json.RawMessage(fmt.Sprintf(`{%q:"en",%q:""}`, sp.Plain, sp.SecretKey)))},
		}
		var want []int64
		for _, in := range inputs {
			rec, err := api.Create(ctx, "1", k.Collection, in)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, rec.ID)
		}
		gone, err := api.Create(ctx, "1", k.Collection, client.RecordInput{Plugin: client.Some(plugins[1]), Order: client.Some(int64(4))})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := api.Update(ctx, "1", k.Collection, gone.ID, client.RecordInput{Deleted: client.Some(true)}); err != nil {
			t.Fatal(err)
		}

		tf := acctest.NewTerraform(t, fmt.Sprintf(`provider "pipeline" {
  host       = %q
  api_key    = %q
  project_id = "1"
}
`, host, localapi.KeyWrite), nil)
		tf.WriteFile("configs.tfquery.hcl", fmt.Sprintf(`list %q "all" {
  provider         = pipeline
  include_resource = true
}
`, configType))
		out, err := tf.Run("query", "-generate-config-out=generated.tf", "-no-color")
		if err != nil {
			t.Fatalf("terraform query: %v\n%s", err, out)
		}
		generated, err := os.ReadFile(filepath.Join(tf.Dir, "generated.tf"))
		if err != nil {
			t.Fatalf("query wrote no configuration: %v\n%s", err, out)
		}
		if n := strings.Count(string(generated), "import {"); n != len(want) {
			t.Errorf("the generated configuration has %d import blocks, want %d:\n%s", n, len(want), generated)
		}
		if strings.Contains(string(generated), sp.SecretKey) {
			t.Errorf("the generated configuration shows the secret setting %s:\n%s", sp.SecretKey, generated)
		}

		local.ResetCounters()
		if out, err := tf.Run("apply", "-auto-approve", "-no-color"); err != nil {
			t.Fatalf("apply of the generated configuration: %v\n%s\n%s", err, generated, out)
		} else if !strings.Contains(out, fmt.Sprintf("%d imported, 0 added, 0 changed, 0 destroyed", len(want))) {
			t.Errorf("apply did not import exactly the listed configs:\n%s\n%s", generated, out)
		}
		c := local.Counters()
		if writes := c["create"] + c["update"] + c["delete"] + c["rearrange"]; writes != 0 {
			t.Errorf("importing made %d writes on the service, want none: %v", writes, c)
		}
		var got []int64
		for _, id := range tf.StateIDs() {
			got = append(got, id)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("the state holds configs %v, want the listed ones %v (not soft-deleted %d)", got, want, gone.ID)
		}
		if out, code := tf.PlanExitCode(); code != 0 {
			t.Errorf("the plan after the import is not empty: exit code %d\n%s\n%s", code, generated, out)
		}
	})
}

// TestAccQuery_generateConfigBesideOrder (issue 27): configuration that
// `terraform query -generate-config-out` writes leaves `order` to the
// service (no number in it), so that it applies beside an order resource
// that puts the configs in another sequence: the apply imports the configs
// and creates the order, and the next plan is empty, also after the order
// resource re-orders them again.
func TestAccQuery_generateConfigBesideOrder(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		acctest.SkipBelowTerraform(t, "1.14.0")
		host, _ := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, localapi.KeyFull)
		var ids []int64
		for i, name := range []string{"a", "b", "c"} {
			rec := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{
				Plugin: client.Some(tc.Plugins[i%2]), Order: client.Some(int64(i + 1)), Enabled: client.Some(true), Name: client.Some(name),
			})
			ids = append(ids, rec.ID)
		}
		orderedAs := func(seq ...int) string {
			refs := make([]string, len(seq))
			for i, n := range seq {
				refs[i] = fmt.Sprint(ids[n])
			}
			return recoveryProvider(host) + fmt.Sprintf("\nresource \"pipeline_%s_order\" \"all\" {\n  config_ids = [%s]\n}\n",
				tc.Kind.Name, strings.Join(refs, ", "))
		}
		tf := acctest.NewTerraform(t, orderedAs(2, 0, 1), nil)
		tf.WriteFile("configs.tfquery.hcl", fmt.Sprintf("list %q \"all\" {\n  provider         = pipeline\n  include_resource = true\n}\n", tc.TypeName))
		out, err := tf.Run("query", "-generate-config-out=generated.tf", "-no-color")
		if err != nil {
			t.Fatalf("terraform query: %v\n%s", err, out)
		}
		generated, err := os.ReadFile(filepath.Join(tf.Dir, "generated.tf"))
		if err != nil {
			t.Fatalf("query wrote no configuration: %v\n%s", err, out)
		}
		if regexp.MustCompile(`(?m)^\s*order\s*=\s*[0-9]`).Match(generated) {
			t.Errorf("the generated configuration sets order:\n%s", generated)
		}

		if out := mustApply(t, tf); !strings.Contains(out, "3 imported, 1 added, 0 changed, 0 destroyed") {
			t.Errorf("apply did not import the three configs and create the order:\n%s\n%s", generated, out)
		}
		if got := orderOf(t, host, tc, ids[2]); got != 1 {
			t.Errorf("config c has order %d, want 1 (first)", got)
		}
		tf.EmptyPlan("after the import beside the order resource")

		tf.WriteConfig(orderedAs(1, 2, 0))
		mustApply(t, tf)
		tf.EmptyPlan("after the order resource re-ordered the imported configs")
	})
}
