package configresource_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// The service refuses null filters, clears them with {}, and stores filters
// as its serializer rewrites them: the tests of issue 20's cases 3 and 4,
// and of numbers read as its Python reads them.

// checkAPIFilters checks the filters the service holds for the config at
// addr: exactly want as a JSON value (numbers as the service reads them),
// not merely the same once normalised.
func checkAPIFilters(t *testing.T, coll client.Collection, addr, want string) resource.TestCheckFunc {
	return acctest.CheckAPIRecord(t, coll, addr, func(rec *client.Record) error {
		if !python.Equal(rec.Filters, json.RawMessage(want)) {
			return fmt.Errorf("filters %s, want %s", rec.Filters, want)
		}
		return nil
	})
}

// checkAPISettings checks the plugin settings the service holds for the
// config at addr: each key of want holds exactly its value, as a JSON value
// (the service adds its plugin's secret keys, null when never set).
func checkAPISettings(t *testing.T, coll client.Collection, addr, want string) resource.TestCheckFunc {
	return acctest.CheckAPIRecord(t, coll, addr, func(rec *client.Record) error {
		stored, err := configresource.ParseSettings(string(rec.Settings))
		if err != nil || !configresource.HoldsSettings(stored, want, configresource.Exactly) {
			return fmt.Errorf("settings %s, want %s in them", rec.Settings, want)
		}
		return nil
	})
}

// TestAccConfigResource_filtersRemoved (case 3): filters left out after
// they were set are cleared, in an apply of their own and in one that also
// changes the plugin settings (a multipart request); the service holds {},
// the state null, and nothing is planned after either apply or after an
// import.
func TestAccConfigResource_filtersRemoved(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		addr := tc.TypeName + ".r"
		plugin := "  plugin = " + strconv.FormatInt(tc.Plugins[0], 10) + "\n"
		filters := "  filters = jsonencode({ events = [{ type = \"events\", id = \"$pageview\" }] })\n"
		withFilters := tc.Config("r", plugin+filters+"  config = jsonencode({ rate = 1 })")
		without := tc.Config("r", plugin+"  config = jsonencode({ rate = 1 })")
		withoutNewSettings := tc.Config("r", plugin+"  config = jsonencode({ rate = 2 })")
		stored := `{"events":[{"type":"events","id":"$pageview","properties":[]}]}`
		var updatedAt string
		cleared := resource.ComposeAggregateTestCheckFunc(
			checkAPIFilters(t, tc.Kind.Collection, addr, `{}`),
			resource.TestCheckNoResourceAttr(addr, "filters"),
		)
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             acctest.CheckDestroyed(t, tc.TypeName, tc.Kind.Collection),
			Steps: []resource.TestStep{
				{Config: withFilters, ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
					Check: checkAPIFilters(t, tc.Kind.Collection, addr, stored)},
				{
					// Removed alone: a JSON PATCH of {}.
					Config: without,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("filters"), knownvalue.Null())),
					Check: cleared,
				},
				{Config: withFilters, ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
					Check: checkAPIFilters(t, tc.Kind.Collection, addr, stored)},
				{
					// Removed beside a settings change: a multipart PATCH.
					Config: withoutNewSettings,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
					Check: resource.ComposeAggregateTestCheckFunc(cleared, checkAPISettings(t, tc.Kind.Collection, addr, `{"rate":2}`),
						acctest.CheckAPIRecord(t, tc.Kind.Collection, addr, func(rec *client.Record) error {
							updatedAt = rec.UpdatedAt
							return nil
						})),
				},
				{
					// A cleared config imported: its {} is no filters, so
					// the configuration without any plans nothing.
					Config: withoutNewSettings, ResourceName: addr, ImportState: true,
					ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: acctest.ImportID(addr, true),
				},
				{
					// Filters that filter nothing ({}, or only keys the
					// service drops) written where the state has none:
					// Terraform must plan the configured text, but the
					// update sends nothing and nothing follows.
					Config:           tc.Config("r", plugin+"  filters = jsonencode({ note = \"dropped\" })\n  config = jsonencode({ rate = 2 })"),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
					Check: resource.ComposeAggregateTestCheckFunc(
						checkAPIFilters(t, tc.Kind.Collection, addr, `{}`),
						acctest.CheckAPIRecord(t, tc.Kind.Collection, addr, func(rec *client.Record) error {
							if rec.UpdatedAt != updatedAt {
								return fmt.Errorf("updated_at %s, was %s: the update wrote", rec.UpdatedAt, updatedAt)
							}
							return nil
						}),
					),
				},
			},
		})
	})
}

// TestAccConfigResource_filtersRewritten (case 4): filters the service
// rewrites (a number id becomes text, names are trimmed, an order in text
// becomes an integer, keys it does not know are dropped, the test-accounts
// flag becomes a boolean) plan nothing after their apply or an import, and
// the service holds its own form of them. Numbers past a double's precision
// in filters and settings are stored as the double, and are no change
// either.
func TestAccConfigResource_filtersRewritten(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		addr := tc.TypeName + ".r"
		config := tc.Config("r", fmt.Sprintf(`  plugin  = %d
  filters = jsonencode({
    events = [{
      type       = "events"
      id         = 5
      name       = <<-EOT
        Page view
      EOT
      order      = "2"
      math       = "total"
      properties = [{ key = "share", value = 1 / 3 }]
    }]
    filter_test_accounts = "true"
  })
  config = jsonencode({ rate = 1 / 3, big = 123456789012345678901234567890, tiny = 1e-7 })`, tc.Plugins[0]))
		stored := `{"events":[{"type":"events","id":"5","name":"Page view","order":2,` +
			`"properties":[{"key":"share","value":0.3333333333333333}]}],"filter_test_accounts":true}`
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             acctest.CheckDestroyed(t, tc.TypeName, tc.Kind.Collection),
			Steps: []resource.TestStep{
				{
					Config:           config,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)),
					ConfigStateChecks: []statecheck.StateCheck{
						// The state keeps the configuration's text.
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("filters"), knownvalue.StringRegexp(regexp.MustCompile(`"id":5`))),
					},
					Check: resource.ComposeAggregateTestCheckFunc(
						checkAPIFilters(t, tc.Kind.Collection, addr, stored),
						checkAPISettings(t, tc.Kind.Collection, addr,
							`{"rate":0.3333333333333333,"big":123456789012345678901234567890,"tiny":1e-07}`),
					),
				},
				{
					Config: config, ResourceName: addr, ImportState: true,
					ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: acctest.ImportID(addr, true),
				},
				{Config: config, ConfigPlanChecks: emptyPlan},
			},
		})
	})
}
