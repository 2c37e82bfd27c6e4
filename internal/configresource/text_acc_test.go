package configresource_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// The service strips names and descriptions, and shows a plugin's own
// (text, "" or null) for a config that has none: the tests of issue 20's
// cases 1, 2, 5 and 8.

// emptyPlan is a step's plan check: nothing to do before the apply.
var emptyPlan = resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}

// blankPlugins are the seeded plugins whose name or description is "" or
// null, by kind.
var blankPlugins = map[string][]int64{
	"transformation": {5, 6}, // description ""; name "" and description null
	"import_app":     {7},    // name null, description ""
}

// TestAccConfigResource_pluginEmptyText (case 1): configs of plugins whose
// own name or description is "" or null, left to the plugin, plan nothing
// after their apply, after an import, and with the configuration `terraform
// query -generate-config-out` writes (`description = ""`; null is left
// out); a blank configured value plans nothing either.
func TestAccConfigResource_pluginEmptyText(t *testing.T) {
	if acctest.IsLive() {
		t.Skip("uses the local API's plugins 5 to 7")
	}
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		for _, plugin := range blankPlugins[tc.Kind.Name] {
			t.Run(fmt.Sprint("plugin ", plugin), func(t *testing.T) {
				p := pluginOf(t, nil, plugin)
				addr := tc.TypeName + ".r"
				leftOut := tc.Config("r", fmt.Sprintf("  plugin = %d", plugin))
				generated := tc.Config("r", fmt.Sprintf("  plugin = %d%s%s", plugin,
					hclText("name", p.Name), hclText("description", p.Description)))
				blank := tc.Config("r", fmt.Sprintf("  plugin = %d\n  name = \"\"\n  description = \" \\n\"", plugin))
				theirs := resource.ComposeAggregateTestCheckFunc(
					checkAPIText(acctest.API(t), tc.Kind.Collection, addr, p.Name, p.Description),
					checkText(addr, "name", p.Name), checkText(addr, "description", p.Description),
				)
				resource.Test(t, resource.TestCase{
					PreCheck:                 func() { acctest.PreCheck(t) },
					ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
					CheckDestroy:             acctest.CheckDestroyed(t, tc.TypeName, tc.Kind.Collection),
					Steps: []resource.TestStep{
						{Config: leftOut, ConfigPlanChecks: acctest.EmptyPlanAfterApply(), Check: theirs},
						{Config: leftOut, ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID,
							ImportStateIdFunc: acctest.ImportID(addr, true)},
						{Config: leftOut, ResourceName: addr, ImportState: true, ImportStateVerify: true,
							ImportStateIdFunc: acctest.ImportID(addr, true)},
						{Config: generated, ConfigPlanChecks: emptyPlan, Check: theirs},
						{Config: generated, ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID,
							ImportStateIdFunc: acctest.ImportID(addr, true)},
						{
							// Blank text is the plugin's too: the state keeps it.
							Config: blank,
							ConfigPlanChecks: acctest.EmptyPlanAfterApply(
								plancheck.ExpectResourceAction(addr, blankAction(p.Name, p.Description))),
							Check: resource.ComposeAggregateTestCheckFunc(
								checkAPIText(acctest.API(t), tc.Kind.Collection, addr, p.Name, p.Description),
								// The state's value where it was the plugin's, else the blank.
								resource.TestCheckResourceAttr(addr, "name", textOr(p.Name, "")),
								resource.TestCheckResourceAttr(addr, "description", textOr(p.Description, " \n")),
								tc.CheckAPI(t, addr, acctest.APIRecord{Plugin: plugin}),
							),
						},
						{
							Config: leftOut, ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
							Check: resource.ComposeAggregateTestCheckFunc(
								checkAPIText(acctest.API(t), tc.Kind.Collection, addr, p.Name, p.Description),
								tc.CheckAPI(t, addr, acctest.APIRecord{Plugin: plugin}),
							),
						},
					},
				})
			})
		}
	})
}

// blankAction is what a configuration setting a blank name and description
// plans for a config that showed the plugin's: nothing, except where the
// plugin's is null (Terraform wants the configured blank planned then; the
// apply sends nothing).
func blankAction(name, description *string) plancheck.ResourceActionType {
	if name == nil || description == nil {
		return plancheck.ResourceActionUpdate
	}
	return plancheck.ResourceActionNoop
}

// TestAccConfigResource_strippedText (case 2): the service strips names and
// descriptions (a heredoc's newline, Unicode spaces), so the configured
// text is kept in state and is no change, after an apply, an import and a
// change of whitespace alone; blank text is stored as "" and shows the
// plugin's; leaving it out afterwards plans the plugin's; a name changed
// on the service is drift, repaired.
func TestAccConfigResource_strippedText(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		addr := tc.TypeName + ".r"
		var id int64
		config := func(name, description string) string {
			return tc.Config("r", fmt.Sprintf("  plugin = %d\n  name = %s\n  description = %s", tc.Plugins[0], name, description))
		}
		heredoc := config(`"\u3000\u001c Lookup\u00a0\t\n"`, "<<-EOT\n    Enriches events\n      with locations.\n  EOT")
		reindented := config(`" Lookup\u2029\u0085"`, "<<-EOT\n        Enriches events\n          with locations.\n\n\n    EOT")
		blank := config(`""`, `"\u2003\n"`)
		stored := func(name, description string) resource.TestCheckFunc {
			return tc.CheckAPI(t, addr, acctest.APIRecord{Plugin: tc.Plugins[0], Name: name, Description: description})
		}
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             acctest.CheckDestroyed(t, tc.TypeName, tc.Kind.Collection),
			Steps: []resource.TestStep{
				{
					Config:           heredoc,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
					Check: resource.ComposeAggregateTestCheckFunc(
						acctest.CaptureID(addr, &id),
						stored("Lookup", "Enriches events\n  with locations."),
						resource.TestCheckResourceAttr(addr, "name", "\u3000\u001c Lookup\u00a0\t\n"),
						resource.TestCheckResourceAttr(addr, "description", "Enriches events\n  with locations.\n"),
					),
				},
				{Config: heredoc, ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID,
					ImportStateIdFunc: acctest.ImportID(addr, true)},
				{
					Config: heredoc, ResourceName: addr, ImportState: true, ImportStateIdFunc: acctest.ImportID(addr, true),
					ImportStateVerify: true, ImportStateVerifyIgnore: []string{"name", "description"},
					ImportStateCheck: func(s []*terraform.InstanceState) error {
						if a := s[0].Attributes; a["name"] != "Lookup" || a["description"] != "Enriches events\n  with locations." {
							return fmt.Errorf("imported %q / %q, want the service's stripped text", a["name"], a["description"])
						}
						return nil
					},
				},
				// Whitespace alone changes nothing the service stores.
				{Config: reindented, ConfigPlanChecks: emptyPlan, Check: stored("Lookup", "Enriches events\n  with locations.")},
				{
					Config: blank,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
					Check: resource.ComposeAggregateTestCheckFunc(
						acctest.CheckID(addr, &id, true),
						stored(acctest.FromPlugin, acctest.FromPlugin),
						resource.TestCheckResourceAttr(addr, "name", ""),
						resource.TestCheckResourceAttr(addr, "description", "\u2003\n"),
					),
				},
				{Config: blank, ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID,
					ImportStateIdFunc: acctest.ImportID(addr, true)},
				{
					// Renamed on the service: drift, repaired.
					PreConfig: tc.OutOfBand(t, &id, func(ctx context.Context, c *client.Client, project string, id int64) error {
						_, err := c.Update(ctx, project, tc.Kind.Collection, id, client.RecordInput{Name: client.Some("renamed")})
						return err
					}),
					Config: blank,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
					Check: stored(acctest.FromPlugin, acctest.FromPlugin),
				},
				{
					// Left out: the plugin's, as the service shows it.
					Config: tc.Config("r", fmt.Sprintf("  plugin = %d", tc.Plugins[0])),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
					Check: stored(acctest.FromPlugin, acctest.FromPlugin),
				},
			},
		})
	})
}

// TestAccConfigResource_objectFormSchema (case 5): an older plugin keeps
// its config_schema as an object by key; its name and description are
// still the plugin's (no change planned), and its apiKey, which the
// service does not treat as secret there, belongs in config, not in
// secret_config_wo.
func TestAccConfigResource_objectFormSchema(t *testing.T) {
	if acctest.IsLive() {
		t.Skip("uses the local API's plugins 8 and 9")
	}
	plugins := map[string]struct {
		id    int64
		other string
	}{"transformation": {8, "normalizedCurrency"}, "import_app": {9, "listId"}}
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		p := plugins[tc.Kind.Name]
		addr := tc.TypeName + ".r"
		body := fmt.Sprintf("  plugin = %d\n  config = jsonencode({ apiKey = \"k-123\", %s = \"x\" })", p.id, p.other)
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             acctest.CheckDestroyed(t, tc.TypeName, tc.Kind.Collection),
			Steps: []resource.TestStep{
				{
					Config:           tc.Config("r", body),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
					Check: resource.ComposeAggregateTestCheckFunc(
						tc.CheckAPI(t, addr, acctest.APIRecord{Plugin: p.id, Name: acctest.FromPlugin, Description: acctest.FromPlugin}),
						acctest.CheckAPIRecord(t, tc.Kind.Collection, addr, func(rec *client.Record) error {
							if !strings.Contains(string(rec.Settings), `"apiKey":"k-123"`) {
								return fmt.Errorf("config %s: the object form masks nothing", rec.Settings)
							}
							return nil
						}),
						resource.TestCheckResourceAttr(addr, "config", fmt.Sprintf(`{"apiKey":"k-123","%s":"x"}`, p.other)),
					),
				},
				{Config: tc.Config("r", body), ResourceName: addr, ImportState: true, ImportStateKind: resource.ImportBlockWithID,
					ImportStateIdFunc: acctest.ImportID(addr, true)},
				{
					// Sent as a secret, apiKey would be shown, and dropped by
					// the next update of config: refused at plan time.
					Config: tc.Config("r", fmt.Sprintf("  plugin = %d\n  config = jsonencode({ %s = \"x\" })\n"+
						"  secret_config_wo = jsonencode({ apiKey = \"k-123\" })\n  secret_config_wo_version = 1", p.id, p.other)),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)Non-secret setting in secret_config_wo.*"apiKey"`),
				},
			},
		})
	})
}

// TestAccConfigResource_textLength (case 8): the service counts characters
// of the stripped text: one more than 400 "é" for a name or 1000 for a
// description is refused at plan time on the attribute, as is a null
// character; 400 "é" (800 bytes) with whitespace around them is a valid
// name and 1000 a valid description.
func TestAccConfigResource_textLength(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		addr := tc.TypeName + ".r"
		config := func(name, description int) string {
			return tc.Config("r", fmt.Sprintf("  plugin = %d\n  name = \"\\t%s\\n\"\n  description = \"%s \"",
				tc.Plugins[0], strings.Repeat("é", name), strings.Repeat("é", description)))
		}
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             acctest.CheckDestroyed(t, tc.TypeName, tc.Kind.Collection),
			Steps: []resource.TestStep{
				{Config: config(401, 1000), PlanOnly: true,
					ExpectError: regexp.MustCompile(`name\s+must\s+be\s+at\s+most\s+400\s+characters,\s+got\s+401`)},
				{Config: config(400, 1001), PlanOnly: true,
					ExpectError: regexp.MustCompile(`description\s+must\s+be\s+at\s+most\s+1000\s+characters,\s+got\s+1001`)},
				{Config: tc.Config("r", fmt.Sprintf("  plugin = %d\n  name = \"a\\u0000b\"", tc.Plugins[0])), PlanOnly: true,
					ExpectError: regexp.MustCompile(`name\s+contains\s+a\s+null\s+character`)},
				{
					// The longest valid text, applied last so that the destroy has a valid configuration.
					Config:           config(400, 1000),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
					Check: tc.CheckAPI(t, addr, acctest.APIRecord{Plugin: tc.Plugins[0],
						Name: strings.Repeat("é", 400), Description: strings.Repeat("é", 1000)}),
				},
			},
		})
	})
}

// pluginOf returns plugin id of srv's catalog, or of the seeded one when
// srv is nil.
func pluginOf(t *testing.T, srv *localapi.Server, id int64) localapi.Plugin {
	t.Helper()
	plugins := localapi.DefaultPlugins()
	if srv != nil {
		plugins = srv.Plugins()
	}
	for _, p := range plugins {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("no plugin %d", id)
	return localapi.Plugin{}
}

// textOr is the text of a plugin's name or description, or, null, or.
func textOr(s *string, or string) string {
	if s == nil {
		return or
	}
	return *s
}

// hclText is an argument setting attr to s as `terraform query
// -generate-config-out` writes it (null included).
func hclText(attr string, s *string) string {
	if s == nil {
		return fmt.Sprintf("\n  %s = null", attr)
	}
	return fmt.Sprintf("\n  %s = %q", attr, *s)
}

// checkText checks attr of the resource at addr in state: want's text, or
// null (absent) for nil.
func checkText(addr, attr string, want *string) resource.TestCheckFunc {
	if want == nil {
		return resource.TestCheckNoResourceAttr(addr, attr)
	}
	return resource.TestCheckResourceAttr(addr, attr, *want)
}

// checkAPIText checks that the service shows exactly name and description
// (nil: null) for the config of the resource at addr, through c.
func checkAPIText(c *client.Client, coll client.Collection, addr string, name, description *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		project, id, err := acctest.RecordRef(s, addr)
		if err != nil {
			return err
		}
		rec, err := c.Get(context.Background(), project, coll, id)
		if err != nil {
			return err
		}
		if acctest.Deref(rec.Name) != acctest.Deref(name) || acctest.Deref(rec.Description) != acctest.Deref(description) {
			return fmt.Errorf("%s: the service shows %q / %q, want %q / %q", addr,
				acctest.Deref(rec.Name), acctest.Deref(rec.Description), acctest.Deref(name), acctest.Deref(description))
		}
		return nil
	}
}

// TestAccConfigResource_blankTextPluginUpgraded (cases 1 and 2 under
// upgrades): configs that set a blank name and a heredoc description keep
// them in state while the service shows the plugin's name, through plugin
// upgrades on the service (renamed, to "" and null, its schema in the
// object form), read from list pages: no plan ever changes anything.
func TestAccConfigResource_blankTextPluginUpgraded(t *testing.T) {
	acctest.SkipUnlessAcc(t)
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		host, srv := acctest.IsolatedAPI(t, nil)
		plugin := tc.Plugins[0]
		original := pluginOf(t, srv, plugin)
		upgrade := func(name, description *string, schema localapi.ConfigSchema) func() {
			return func() {
				p := original
				p.Name, p.Description, p.ConfigSchema = name, description, schema
				if err := srv.SetPlugin(p); err != nil {
					t.Fatal(err)
				}
			}
		}
		api := acctest.ClientFor(t, host, acctest.KeyFull)
		config := acctest.ProviderBlock(host, acctest.KeyWrite, "1") + tc.Resource("r", fmt.Sprintf(
			"  count       = 3\n  plugin      = %d\n  name        = \"\"\n  description = <<-EOT\n    Managed.\n  EOT", plugin))
		kept := func(name *string) resource.TestCheckFunc {
			var checks []resource.TestCheckFunc
			for i := range 3 {
				addr := fmt.Sprintf("%s.r.%d", tc.TypeName, i)
				checks = append(checks,
					resource.TestCheckResourceAttr(addr, "name", ""),
					resource.TestCheckResourceAttr(addr, "description", "Managed.\n"),
					checkAPIText(api, tc.Kind.Collection, addr, name, acctest.Ptr("Managed.")))
			}
			return resource.ComposeAggregateTestCheckFunc(checks...)
		}
		renamed, blank := "Renamed", ""
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{Config: config, ConfigPlanChecks: acctest.EmptyPlanAfterApply(), Check: kept(original.Name)},
				{PreConfig: upgrade(&renamed, original.Description, original.ConfigSchema),
					Config: config, ConfigPlanChecks: emptyPlan, Check: kept(&renamed)},
				{PreConfig: upgrade(&blank, nil, original.ConfigSchema),
					Config: config, ConfigPlanChecks: emptyPlan, Check: kept(&blank)},
				{PreConfig: upgrade(nil, &blank, localapi.ObjectSchema(original.ConfigSchema.Fields...)),
					Config: config, ConfigPlanChecks: emptyPlan, Check: kept(nil)},
				{PreConfig: upgrade(original.Name, original.Description, original.ConfigSchema),
					Config: config, ConfigPlanChecks: emptyPlan, Check: kept(original.Name)},
			},
		})
	})
}
