package configresource_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccConfigResource_pluginChanged upgrades a plugin on the service
// (localapi's SetPlugin, as an upgrade does) under configs that leave
// their name and description to it: renamed and re-described, then with a
// name of "" and a null description, then with its config_schema in the
// older object form. The refresh, which reads most of the configs from list
// pages, shows the plugin's new name and description, so the plan is
// empty; an update then applies without an inconsistent result.
func TestAccConfigResource_pluginChanged(t *testing.T) {
	acctest.SkipUnlessAcc(t)
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		host, srv := acctest.IsolatedAPI(t, nil)
		plugin := tc.Plugins[0]
		original := pluginOf(t, srv, plugin)
		upgrade := func(change func(p *localapi.Plugin)) func() {
			return func() {
				p := original
				change(&p)
				if err := srv.SetPlugin(p); err != nil {
					t.Fatal(err)
				}
			}
		}
		config := func(enabled bool) string {
			return acctest.ProviderBlock(host, acctest.KeyWrite, "1") + tc.Resource("r",
				fmt.Sprintf("  count   = 3\n  plugin  = %d\n  enabled = %t", plugin, enabled))
		}
		nameIs := func(name, description *string) resource.TestCheckFunc {
			var checks []resource.TestCheckFunc
			for i := range 3 {
				addr := fmt.Sprintf("%s.r.%d", tc.TypeName, i)
				checks = append(checks, checkText(addr, "name", name), checkText(addr, "description", description))
			}
			return resource.ComposeAggregateTestCheckFunc(checks...)
		}
		renamed, redescribed, blank := *original.Name+" v2", *original.Description+" (v2)", ""
		var id int64

		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					Config: config(false),
					Check:  nameIs(original.Name, original.Description),
				},
				{
					// The plugin is renamed and re-described on the service.
					PreConfig: upgrade(func(p *localapi.Plugin) {
						p.Name, p.Description, p.Tag = &renamed, &redescribed, "v9.9.9"
					}),
					Config:           config(false),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					Check:            nameIs(&renamed, &redescribed),
				},
				{
					// Its name becomes "", its description null: text that
					// becomes the plugin's empty one reads as "" (a configured
					// blank could not plan against null).
					PreConfig:        upgrade(func(p *localapi.Plugin) { p.Name, p.Description = &blank, nil }),
					Config:           config(false),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					Check:            nameIs(&blank, &blank),
				},
				{
					// Its schema in the older object form.
					PreConfig: upgrade(func(p *localapi.Plugin) {
						p.Name, p.Description = &redescribed, &blank
						p.ConfigSchema = localapi.ObjectSchema(p.ConfigSchema.Fields...)
					}),
					Config:           config(false),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					Check:            nameIs(&redescribed, &blank),
				},
				{
					PreConfig: upgrade(func(p *localapi.Plugin) { p.Name, p.Description = &renamed, &redescribed }),
					Config:    config(true),
					Check: resource.ComposeAggregateTestCheckFunc(
						nameIs(&renamed, &redescribed),
						acctest.CaptureID(tc.TypeName+".r.2", &id),
						func(*terraform.State) error {
							rec, err := acctest.ClientFor(t, host, acctest.KeyFull).Get(t.Context(), "1", tc.Kind.Collection, id)
							if err != nil {
								return err
							}
							if !rec.Enabled || rec.Name == nil || *rec.Name != renamed {
								return fmt.Errorf("the service holds enabled=%t name=%v, want enabled under the new name", rec.Enabled, rec.Name)
							}
							return nil
						},
					),
				},
			},
		})
	})
}
