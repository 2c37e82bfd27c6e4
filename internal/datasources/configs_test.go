package datasources_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// dataSourceName is the type of one of tc's data sources, e.g. "configs".
func dataSourceName(tc acctest.KindCase, suffix string) string { return tc.TypeName + suffix }

// TestAccConfigDataSources reads, through Terraform, a collection of more
// than one page (a local API of the test's own, so that the counts are
// exact): the list data source with each narrowing, and the single-record
// data source of an enabled, a disabled and a soft-deleted config, each
// checked against the API's records.
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
		otherColl := kind.Kinds()[0].Collection
		if otherColl == tc.Kind.Collection {
			otherColl = kind.Kinds()[1].Collection
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
						statecheck.ExpectKnownValue("data."+dataSourceName(tc, "s")+".with_deleted", tfjsonpath.New("configs"), knownvalue.ListSizeExact(enabledCount+2)),
						statecheck.ExpectKnownValue("data."+dataSourceName(tc, "")+".deleted", tfjsonpath.New("deleted"), knownvalue.Bool(true)),
						statecheck.ExpectKnownValue("data."+dataSourceName(tc, "")+".disabled", tfjsonpath.New("plugin_info"), knownvalue.NotNull()),
					},
					Check: resource.ComposeAggregateTestCheckFunc(
						checkListMatchesAPI(api, tc, all, false, other.ID),
						checkListMatchesAPI(api, tc, "data."+dataSourceName(tc, "s")+".with_deleted", true, other.ID),
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
// collection's records as the API lists them (deleted ones only when
// withDeleted), by order and then id, field by field, and never the config
// of the other kind.
func checkListMatchesAPI(api *client.Client, tc acctest.KindCase, addr string, withDeleted bool, otherID int64) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		recs, err := api.ListAll(context.Background(), "1", tc.Kind.Collection)
		if err != nil {
			return err
		}
		var want []client.Record
		for _, r := range recs {
			if withDeleted || !r.Deleted {
				want = append(want, r)
			}
		}
		record.SortByOrder(want)
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
			if v == strconv.FormatInt(otherID, 10) && regexp.MustCompile(`^configs\.\d+\.id$`).MatchString(k) {
				return fmt.Errorf("%s lists the config of the other kind (%s)", addr, k)
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
