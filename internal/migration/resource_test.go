package migration_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// Plugins of the local API's catalog with localapitest's migrators, per
// kind: one the service can turn into a hog function (SendGrid's url has a
// migrator) and one it cannot.
var plugins = map[string]struct{ migrator, none int64 }{
	"transformation": {migrator: localapitest.MigratorPlugins[localapi.TransformationConfigs], none: 2}, // Property Filter
	"import_app":     {migrator: localapitest.MigratorPlugins[localapi.ImportAppConfigs], none: 4},      // BigQuery Import
}

// isolatedAPI is a local API of the test's own whose catalog has the
// migrator plugins.
func isolatedAPI(t *testing.T) (host string, srv *localapi.Server) {
	t.Helper()
	return acctest.IsolatedAPIWith(t, localapi.Options{Plugins: localapitest.WithMigrators()}, nil)
}

// seed creates an enabled config of plugin at generation 1, as it exists on
// a service that has since moved to generation 2, with the settings
// migrate needs.
func seed(t *testing.T, host string, coll client.Collection, plugin int64) int64 {
	t.Helper()
	return acctest.MustCreate(t, acctest.ClientFor(t, host, acctest.KeyFull), coll, client.RecordInput{
		Plugin: client.Some(plugin), Order: client.Some(int64(1)), Enabled: client.Some(true),
		Name: client.Some("seeded"), Config: client.Some(json.RawMessage(localapitest.MigratorSettings)),
	}).ID
}

// generation2 returns a local API of the test's own at generation 2,
// holding an enabled config of kind tc's plugin with a migrator, made under
// generation 1.
func generation2(t *testing.T, tc acctest.KindCase) (host string, srv *localapi.Server, configID int64) {
	t.Helper()
	host, srv = isolatedAPI(t)
	configID = seed(t, host, tc.Kind.Collection, plugins[tc.Kind.Name].migrator)
	if err := srv.SetGeneration(localapi.Generation2); err != nil {
		t.Fatal(err)
	}
	return host, srv, configID
}

func migrationConfig(host, kind string, configID int64) string {
	return acctest.ProviderBlock(host, acctest.KeyFull, "1") + fmt.Sprintf(`
resource "pipeline_%s_migration" "m" {
  config_id = %d
}
`, kind, configID)
}

// TestAccMigrationResource: at generation 2 the resource migrates its
// config once on create (one migrate request, one hog function made of that
// config, the config disabled but kept), stores the hog function's id and
// answer, plans nothing afterwards and calls nothing on refresh and
// destroy: after destroy the config and the one hog function are still
// there.
func TestAccMigrationResource(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		acctest.SkipUnlessAcc(t)
		host, srv, configID := generation2(t, tc)
		addr := "pipeline_" + tc.Kind.Name + "_migration.m"
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy: func(*terraform.State) error {
				if err := checkMigratedOnce(host, srv, tc, configID); err != nil {
					return fmt.Errorf("after destroy: %w", err)
				}
				return nil
			},
			Steps: []resource.TestStep{
				{
					Config: migrationConfig(host, tc.Kind.Name, configID),
					Check: resource.ComposeAggregateTestCheckFunc(
						func(*terraform.State) error { return checkMigratedOnce(host, srv, tc, configID) },
						resource.TestCheckResourceAttr(addr, "id", fmt.Sprintf("1/%d", configID)),
						resource.TestCheckResourceAttr(addr, "project_id", "1"),
						resource.TestCheckResourceAttrWith(addr, "hog_function_id", func(v string) error {
							if made := srv.HogFunctions(); len(made) != 1 || made[0].ID != v {
								return fmt.Errorf("hog_function_id %q, the local API holds %+v", v, made)
							}
							return nil
						}),
						resource.TestCheckResourceAttrWith(addr, "hog_function", func(v string) error {
							var hf struct {
								ID      string `json:"id"`
								Enabled bool   `json:"enabled"`
							}
							if err := json.Unmarshal([]byte(v), &hf); err != nil {
								return fmt.Errorf("hog_function %s: %w", v, err)
							}
							if hf.ID != srv.HogFunctions()[0].ID || !hf.Enabled {
								return fmt.Errorf("hog_function %s, want the enabled hog function the local API made", v)
							}
							return nil
						}),
					),
				},
				{
					// Refresh and plan again: nothing to do. (A PlanOnly step
					// runs no Check: CheckDestroy counts the migrate requests
					// of the whole test, this refresh included.)
					Config:   migrationConfig(host, tc.Kind.Name, configID),
					PlanOnly: true,
				},
			},
		})
	})
}

// checkMigratedOnce checks the local API: one hog function, made of config
// id, the config disabled, not deleted, and one migrate request in all.
func checkMigratedOnce(host string, srv *localapi.Server, tc acctest.KindCase, id int64) error {
	made := srv.HogFunctions()
	if len(made) != 1 || made[0].SourceConfigID == nil || *made[0].SourceConfigID != id {
		return fmt.Errorf("hog functions %+v, want one made of config %d", made, id)
	}
	if n := srv.Counters()["migrate:"+string(tc.Kind.Collection)]; n != 1 {
		return fmt.Errorf("%d migrate requests, want 1", n)
	}
	return checkConfig(host, tc.Kind.Collection, id, false)
}

// checkConfig checks on the API that config id is still there, not
// deleted, and enabled as wanted.
func checkConfig(host string, coll client.Collection, id int64, enabled bool) error {
	c, err := client.New(client.Config{Host: host, APIKey: localapi.KeyFull})
	if err != nil {
		return err
	}
	rec, err := c.Get(context.Background(), "1", coll, id)
	if err != nil {
		return err
	}
	if rec.Deleted || rec.Enabled != enabled {
		return fmt.Errorf("config %d: enabled=%v deleted=%v, want enabled=%v and not deleted", id, rec.Enabled, rec.Deleted, enabled)
	}
	return nil
}

// TestAccMigrationResource_refused: what cannot be migrated fails with an
// error that says why and what to do, and nothing changes: an unknown
// config at plan time (no migrate request), a service of generation 1 (no
// migrate action), a plugin the service cannot migrate.
func TestAccMigrationResource_refused(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		acctest.SkipUnlessAcc(t)
		host, srv := isolatedAPI(t)
		migratable := seed(t, host, tc.Kind.Collection, plugins[tc.Kind.Name].migrator)
		other := seed(t, host, tc.Kind.Collection, plugins[tc.Kind.Name].none)
		setGeneration := func(gen int) func() {
			return func() {
				if err := srv.SetGeneration(gen); err != nil {
					t.Fatal(err)
				}
			}
		}
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					PreConfig:   setGeneration(localapi.Generation2),
					Config:      migrationConfig(host, tc.Kind.Name, 999999),
					PlanOnly:    true,
					ExpectError: errorSaying("Unknown "+tc.Kind.Noun+" 999999", "nothing to migrate"),
				},
				{
					PreConfig: setGeneration(localapi.Generation1),
					Config:    migrationConfig(host, tc.Kind.Name, migratable),
					ExpectError: errorSaying("Could not migrate "+tc.Kind.Noun, "404 Not Found although config",
						"exists: the service has no migrate action.", "Only services since July 2025"),
				},
				{
					PreConfig:   setGeneration(localapi.Generation2),
					Config:      migrationConfig(host, tc.Kind.Name, other),
					ExpectError: errorSaying("No migration available for this plugin", "cannot turn the plugin"),
				},
			},
		})
		if made := srv.HogFunctions(); len(made) != 0 {
			t.Errorf("hog functions %+v, want none", made)
		}
		if err := checkConfig(host, tc.Kind.Collection, migratable, true); err != nil {
			t.Error(err)
		}
		if err := checkConfig(host, tc.Kind.Collection, other, true); err != nil {
			t.Error(err)
		}
	})
}

// TestMigrationResource_destroyWarns: destroying a migration calls nothing
// and warns that nothing is undone.
func TestMigrationResource_destroyWarns(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		host, srv, configID := generation2(t, tc)
		ps := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1")
		typeName := "pipeline_" + tc.Kind.Name + "_migration"
		created := ps.Apply(t, typeName, nil, nil, map[string]tftypes.Value{
			"config_id": tftypes.NewValue(tftypes.Number, configID),
		})
		acctest.FailOnDiagnostics(t, "apply", created.Diagnostics)
		srv.ResetCounters()
		destroyed := ps.Apply(t, typeName, created.NewState, nil, nil)
		acctest.FailOnDiagnostics(t, "destroy", destroyed.Diagnostics)
		if len(destroyed.Diagnostics) != 1 || destroyed.Diagnostics[0].Summary != "A migration cannot be undone" {
			t.Errorf("destroy diagnostics %+v, want the one warning", destroyed.Diagnostics)
		}
		if n := srv.Counters()["total"]; n != 0 {
			t.Errorf("destroy made %d requests, want none", n)
		}
		if err := checkConfig(host, tc.Kind.Collection, configID, false); err != nil {
			t.Error(err)
		}
	})
}

// errorSaying matches an error output that says each part in turn; any
// space may be a line break (Terraform wraps long lines).
func errorSaying(parts ...string) *regexp.Regexp {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = strings.ReplaceAll(regexp.QuoteMeta(p), " ", `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}

// TestMigrationResource_currentProjectProtocol: a migration made under a
// provider of "@current" is not made again when the provider's project_id
// is written as the project's id (the same project: no replacement, and
// the state keeps "@current"), while another project replaces it. The plan
// calls the provider's protocol 6 server with such a state.
func TestMigrationResource_currentProjectProtocol(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		host, _, configID := generation2(t, tc)
		typeName := "pipeline_" + tc.Kind.Name + "_migration"
		for _, c := range []struct {
			configured  string // the resource's project_id; "" leaves it to the provider's "1"
			wantReplace bool
			wantProject string
		}{
			{configured: "", wantProject: "@current"},
			{configured: "1", wantProject: "1"},
			{configured: "2", wantReplace: true, wantProject: "2"},
		} {
			srv := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1")
			typ := srv.ResourceType(t, typeName)
			prior := acctest.DynamicValue(t, typ, map[string]tftypes.Value{
				"id":              tftypes.NewValue(tftypes.String, fmt.Sprintf("@current/%d", configID)),
				"project_id":      tftypes.NewValue(tftypes.String, "@current"),
				"config_id":       tftypes.NewValue(tftypes.Number, configID),
				"hog_function_id": tftypes.NewValue(tftypes.String, "hog-1"),
				"hog_function":    tftypes.NewValue(tftypes.String, `{"id":"hog-1"}`),
			})
			config := map[string]tftypes.Value{"config_id": tftypes.NewValue(tftypes.Number, configID)}
			if c.configured != "" {
				config["project_id"] = tftypes.NewValue(tftypes.String, c.configured)
			}
			plan := srv.Plan(t, typeName, prior, nil, nil, config)
			acctest.FailOnDiagnostics(t, "PlanResourceChange", plan.Diagnostics)
			replaces := len(plan.RequiresReplace) > 0
			project := acctest.StringOf(t, acctest.Attributes(t, plan.PlannedState, typ)["project_id"])
			if replaces != c.wantReplace || project != c.wantProject {
				t.Errorf("project_id %q under a provider of 1, state @current: replacement %v (%v), project %q; want %v, %q",
					c.configured, replaces, plan.RequiresReplace, project, c.wantReplace, c.wantProject)
			}
		}
	})
}
