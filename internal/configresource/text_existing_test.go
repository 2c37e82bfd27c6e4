package configresource_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccExistingConfig_text (case 2 at generation 2, where configs exist
// and none are created; against a live instance the config
// PIPELINE_TEST_<KIND>_CONFIG_ID names): an import block whose
// configuration surrounds the config's name and description with
// whitespace takes it over without a change; a blank description shows the
// plugin's and a heredoc one is stored stripped, each apply followed by an
// empty plan. The config is let go (ExistingConfig.Test) and set back
// afterwards.
func TestAccExistingConfig_text(t *testing.T) {
	for _, k := range framework.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			ex := acctest.Existing(t, k)
			orig := ex.Original
			addr := ex.Address("existing")
			filters := filtersArgument(orig)
			block := func(description string) string {
				return ex.ProviderBlock() + ex.Resource("existing", fmt.Sprintf(`  project_id  = %q
  plugin      = %d
  enabled     = %t
  name        = "\n  %s\u3000"
  description = %s
%s`, ex.Project, orig.Plugin, orig.Enabled, acctest.Deref(orig.Name), description, filters))
			}
			imported := block(fmt.Sprintf("%q", acctest.Deref(orig.Description)+"\n")) + ex.Import("existing")
			var plugin struct{ Description *string } // the plugin's own, shown for a blank
			if err := json.Unmarshal(orig.PluginInfo, &plugin); err != nil {
				t.Fatalf("plugin_info: %v", err)
			}
			ex.Test(t, resource.TestCase{
				Steps: []resource.TestStep{
					{
						Config: imported,
						ConfigPlanChecks: acctest.EmptyPlanAfterApply(
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)),
						Check: checkAPIText(ex.API, k.Collection, addr, orig.Name, orig.Description),
					},
					{
						Config: block(`""`),
						ConfigPlanChecks: acctest.EmptyPlanAfterApply(
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
						Check: resource.ComposeAggregateTestCheckFunc(
							checkAPIText(ex.API, k.Collection, addr, orig.Name, plugin.Description),
							resource.TestCheckResourceAttr(addr, "description", ""),
						),
					},
					{
						Config: block("<<-EOT\n    Described at generation 2.\n  EOT"),
						ConfigPlanChecks: acctest.EmptyPlanAfterApply(
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
						Check: resource.ComposeAggregateTestCheckFunc(
							checkAPIText(ex.API, k.Collection, addr, orig.Name, acctest.Ptr("Described at generation 2.")),
							resource.TestCheckResourceAttr(addr, "description", "Described at generation 2.\n"),
						),
					},
				},
			})
		})
	}
}

// TestAccExistingConfig_pluginEmptyText (case 1 at generation 2): configs
// made at generation 1 that leave their name and description to a plugin
// whose own are "" or null are imported at generation 2 with no change and
// plan nothing, also after the plugin is upgraded to a described one.
func TestAccExistingConfig_pluginEmptyText(t *testing.T) {
	acctest.SkipUnlessAcc(t)
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		host, srv := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, acctest.KeyFull)
		plugin := blankPlugins[tc.Kind.Name][0]
		rec, err := api.Create(context.Background(), "1", tc.Kind.Collection,
			client.RecordInput{Plugin: client.Some(plugin), Order: client.Some(int64(1)), Enabled: client.Some(true)})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.SetGeneration(localapi.Generation2); err != nil {
			t.Fatal(err)
		}
		addr := tc.TypeName + ".existing"
		config := acctest.ProviderBlock(host, acctest.KeyWrite, "1") + fmt.Sprintf(
			"\nresource %q \"existing\" {\n  plugin  = %d\n  enabled = true\n}\n", tc.TypeName, plugin)
		p := pluginOf(t, srv, plugin)
		described := "Described after an upgrade."
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					Config: config + fmt.Sprintf("\nimport {\n  to = %s\n  id = \"1/%d\"\n}\n", addr, rec.ID),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)),
					Check: resource.ComposeAggregateTestCheckFunc(
						checkAPIText(api, tc.Kind.Collection, addr, p.Name, p.Description),
						checkText(addr, "name", p.Name), checkText(addr, "description", p.Description),
					),
				},
				{
					PreConfig: func() {
						q := p
						q.Description = &described
						if err := srv.SetPlugin(q); err != nil {
							t.Fatal(err)
						}
					},
					Config:           config,
					ConfigPlanChecks: emptyPlan,
					Check:            checkText(addr, "description", &described),
				},
				{Config: acctest.ProviderBlock(host, acctest.KeyWrite, "1") + letGo(addr)},
			},
		})
	})
}
