package datasources_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// dataSourceName is the type of one of tc's data sources, e.g. "configs".
func dataSourceName(tc acctest.KindCase, suffix string) string { return tc.TypeName + suffix }

// TestAccConfigDataSources reads, through Terraform, a collection of more
// than one page (a local API of the test's own, so that the counts are
// exact): the list data source with each narrowing (include_deleted, which
// is deprecated, changes nothing: the service lists no soft-deleted
// config), and the single-record data source of an enabled, a disabled and
// a soft-deleted config, each checked against the API's records.
func TestAccConfigDataSources(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		acctest.SkipUnlessAcc(t)
		host, _ := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, acctest.KeyFull)
		p0, p1 := tc.Plugins[0], tc.Plugins[1]

		// 101 enabled configs of p0 (more than the service's page of 100),
		// one disabled config of p1, one soft-deleted config of p0, and one
		// of the other kind, which this collection does not show.
		const enabledCount = 101
		for i := range enabledCount {
			acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{
				Plugin: client.Some(p0), Order: client.Some(int64(enabledCount - i)), Enabled: client.Some(true),
			})
		}
		disabled := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{
			Plugin: client.Some(p1), Order: client.Some(int64(50)), Name: client.Some("the disabled one"),
			Description: client.Some("Read by the data source test."),
		})
		deleted := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{Plugin: client.Some(p0), Order: client.Some(int64(7))})
		if _, err := api.Update(context.Background(), "1", tc.Kind.Collection, deleted.ID, client.RecordInput{Deleted: client.Some(true)}); err != nil {
			t.Fatal(err)
		}
		otherColl := framework.Kinds()[0].Collection
		if otherColl == tc.Kind.Collection {
			otherColl = framework.Kinds()[1].Collection
		}
		other := acctest.MustCreate(t, api, otherColl, client.RecordInput{Plugin: client.Some(tc.OtherPlugin), Order: client.Some(int64(1))})

		all := "data." + dataSourceName(tc, "s") + ".all"
		config := acctest.ProviderBlock(host, acctest.KeyWrite, "1") + fmt.Sprintf(`
data %[1]q "all" {}
data %[1]q "disabled" {
  enabled = false
}
data %[1]q "of_plugin" {
  plugin = %[2]d
}
data %[1]q "with_deleted" {
  include_deleted = true
}
data %[3]q "disabled" {
  id = %[4]d
}
data %[3]q "deleted" {
  id = %[5]d
}
`, dataSourceName(tc, "s"), p1, dataSourceName(tc, ""), disabled.ID, deleted.ID)

		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					Config: config,
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(all, tfjsonpath.New("project_id"), knownvalue.StringExact("1")),
						statecheck.ExpectKnownValue(all, tfjsonpath.New("configs"), knownvalue.ListSizeExact(enabledCount+1)),
						statecheck.ExpectKnownValue("data."+dataSourceName(tc, "s")+".disabled", tfjsonpath.New("configs"), knownvalue.ListExact([]knownvalue.Check{
							knownvalue.ObjectPartial(map[string]knownvalue.Check{
								"id": knownvalue.Int64Exact(disabled.ID), "enabled": knownvalue.Bool(false),
								"name": knownvalue.StringExact("the disabled one"), "project_id": knownvalue.StringExact("1"),
							}),
						})),
						statecheck.ExpectKnownValue("data."+dataSourceName(tc, "s")+".of_plugin", tfjsonpath.New("configs"), knownvalue.ListSizeExact(1)),
						statecheck.ExpectKnownValue("data."+dataSourceName(tc, "s")+".with_deleted", tfjsonpath.New("configs"), knownvalue.ListSizeExact(enabledCount+1)),
						statecheck.ExpectKnownValue("data."+dataSourceName(tc, "")+".deleted", tfjsonpath.New("deleted"), knownvalue.Bool(true)),
						statecheck.ExpectKnownValue("data."+dataSourceName(tc, "")+".disabled", tfjsonpath.New("plugin_info"), knownvalue.NotNull()),
					},
					Check: resource.ComposeAggregateTestCheckFunc(
						checkListMatchesAPI(api, tc, all, deleted.ID, other.ID),
						checkListMatchesAPI(api, tc, "data."+dataSourceName(tc, "s")+".with_deleted", deleted.ID, other.ID),
						checkRecordMatchesAPI(api, tc, "data."+dataSourceName(tc, "")+".disabled", disabled.ID),
						checkRecordMatchesAPI(api, tc, "data."+dataSourceName(tc, "")+".deleted", deleted.ID),
					),
				},
				{
					// A config of the other kind is not in this collection.
					Config:      acctest.ProviderBlock(host, acctest.KeyWrite, "1") + fmt.Sprintf("data %q \"other\" {\n  id = %d\n}\n", dataSourceName(tc, ""), other.ID),
					ExpectError: regexp.MustCompile(`(?s)has no ` + tc.Kind.Noun + ` with id ` + strconv.FormatInt(other.ID, 10)),
				},
			},
		})
	})
}

// checkListMatchesAPI checks that the list data source at addr holds the
// collection's records as the API lists them, by order and then id, field
// by field, and never the soft-deleted config deletedID (which the service
// does not list) nor the config of the other kind.
func checkListMatchesAPI(api *client.Client, tc acctest.KindCase, addr string, deletedID, otherID int64) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		want, err := api.ListAll(context.Background(), "1", tc.Kind.Collection)
		if err != nil {
			return err
		}
		configresource.SortByOrder(want)
		attrs := s.RootModule().Resources[addr].Primary.Attributes
		if attrs["configs.#"] != strconv.Itoa(len(want)) {
			return fmt.Errorf("%s: %s configs, the API lists %d", addr, attrs["configs.#"], len(want))
		}
		for i, r := range want {
			if err := compareRecord(attrs, fmt.Sprintf("configs.%d.", i), &r); err != nil {
				return fmt.Errorf("%s: %w", addr, err)
			}
		}
		for k, v := range attrs {
			if !regexp.MustCompile(`^configs\.\d+\.id$`).MatchString(k) {
				continue
			}
			switch v {
			case strconv.FormatInt(otherID, 10):
				return fmt.Errorf("%s lists the config of the other kind (%s)", addr, k)
			case strconv.FormatInt(deletedID, 10):
				return fmt.Errorf("%s lists the soft-deleted config (%s)", addr, k)
			}
		}
		return nil
	}
}

// checkRecordMatchesAPI checks the single-record data source at addr
// against the API's record id.
func checkRecordMatchesAPI(api *client.Client, tc acctest.KindCase, addr string, id int64) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rec, err := api.Get(context.Background(), "1", tc.Kind.Collection, id)
		if err != nil {
			return err
		}
		if err := compareRecord(s.RootModule().Resources[addr].Primary.Attributes, "", rec); err != nil {
			return fmt.Errorf("%s: %w", addr, err)
		}
		return nil
	}
}

// compareRecord compares the flat state attributes under prefix with rec.
func compareRecord(attrs map[string]string, prefix string, rec *client.Record) error {
	for attr, api := range map[string]string{
		"id": strconv.FormatInt(rec.ID, 10), "plugin": strconv.FormatInt(rec.Plugin, 10), "enabled": strconv.FormatBool(rec.Enabled),
		"order": strconv.FormatInt(rec.Order, 10), "name": acctest.Deref(rec.Name), "description": acctest.Deref(rec.Description),
		"deleted": strconv.FormatBool(rec.Deleted), "team_id": strconv.FormatInt(rec.TeamID, 10),
		"created_at": rec.CreatedAt, "updated_at": rec.UpdatedAt, "project_id": "1",
	} {
		if got := attrs[prefix+attr]; got != api {
			return fmt.Errorf("%s%s = %q, the API says %q", prefix, attr, got, api)
		}
	}
	return nil
}

// TestAccConfigsDataSource_secretSettings: list pages carry no plugin_info,
// and the service masks only secrets that are set, so a secret setting
// that is "" or was never set comes back as it is. The list data source
// still leaves every secret setting of the plugin out of `config`, as the
// single-record data source and the resource do, and shows each config's
// plugin_info.
func TestAccConfigsDataSource_secretSettings(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		acctest.SkipUnlessAcc(t)
		host, _ := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, acctest.KeyFull)
		sp := acctest.SecretPlugins[tc.Kind.Name]
		settings := func(plain, secret string) client.Opt[json.RawMessage] {
			s := fmt.Sprintf(`{%q: %q`, sp.Plain, plain)
			if secret != "unset" {
				s += fmt.Sprintf(`, %q: %q`, sp.SecretKey, secret)
			}
			return client.Some(json.RawMessage(s + "}"))
		}
		var ids []int64
		for i, secret := range []string{"", "unset", "s3cret"} {
			rec := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{
				Plugin: client.Some(sp.Plugin), Order: client.Some(int64(i + 1)), Settings: settings(fmt.Sprint("plain ", i), secret),
			})
			ids = append(ids, rec.ID)
		}
		// The service shows the unset and empty secrets as they are.
		listed, err := api.ListAll(context.Background(), "1", tc.Kind.Collection)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(listed[0].Settings), sp.SecretKey) {
			t.Fatalf("the service's list shows %s, want the empty secret %q in it: the case this test is about", listed[0].Settings, sp.SecretKey)
		}

		configs := make([]knownvalue.Check, len(ids))
		for i, id := range ids {
			configs[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"id":          knownvalue.Int64Exact(id),
				"config":      knownvalue.StringExact(fmt.Sprintf(`{%q:"plain %d"}`, sp.Plain, i)),
				"plugin_info": knownvalue.StringRegexp(regexp.MustCompile(`"config_schema"`)),
			})
		}
		addr := "data." + dataSourceName(tc, "s") + ".all"
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config: acctest.ProviderBlock(host, acctest.KeyWrite, "1") + fmt.Sprintf("data %q \"all\" {}\n", dataSourceName(tc, "s")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("configs"), knownvalue.ListExact(configs)),
				},
			}},
		})
	})
}

// TestConfigsDataSource_includeDeletedDeprecated: include_deleted, which
// cannot show anything (the service lists no soft-deleted config), warns
// whenever it is set that it is deprecated and says what to use instead.
func TestConfigsDataSource_includeDeletedDeprecated(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		srv := acctest.NewProviderServerFor(t, "https://us.posthog.com", "phx_unused", "1") // validation calls nothing
		typeName := dataSourceName(tc, "s")
		typ := srv.Schemas.DataSourceSchemas[typeName].ValueType()
		for _, value := range []bool{true, false} {
			resp, err := srv.ValidateDataResourceConfig(context.Background(), &tfprotov6.ValidateDataResourceConfigRequest{
				TypeName: typeName,
				Config:   acctest.DynamicValue(t, typ, map[string]tftypes.Value{"include_deleted": tftypes.NewValue(tftypes.Bool, value)}),
			})
			if err != nil {
				t.Fatal(err)
			}
			var warned bool
			for _, d := range resp.Diagnostics {
				if d.Severity == tfprotov6.DiagnosticSeverityWarning && strings.Contains(d.Detail, "never lists soft-deleted configs") &&
					strings.Contains(d.Detail, dataSourceName(tc, "")) {
					warned = true
				}
			}
			if !warned {
				t.Errorf("include_deleted = %v: diagnostics %v, want a deprecation warning naming %s", value, resp.Diagnostics, dataSourceName(tc, ""))
			}
		}
		schema := srv.Schemas.DataSourceSchemas[typeName].Block
		for _, a := range schema.Attributes {
			if a.Name == "include_deleted" && !a.Deprecated {
				t.Error("include_deleted is not marked deprecated in the schema")
			}
		}
	})
}
