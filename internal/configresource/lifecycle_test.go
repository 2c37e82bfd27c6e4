package configresource_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// Filters as a user writes them, and as the service normalises them.
const (
	// An event without properties and a key the service drops: the service
	// adds "properties": [] and drops "note".
	filtersLoose = `jsonencode({
    events = [{ id = "$pageview", name = "$pageview", type = "events" }]
    note   = "the service drops this key"
  })`
	filtersLooseStored = `{"events":[{"id":"$pageview","name":"$pageview","type":"events","properties":[]}]}`

	filtersActions = `jsonencode({
    actions              = [{ id = 7, name = "Signed up", type = "actions" }]
    filter_test_accounts = true
  })`
	filtersActionsStored = `{"actions":[{"id":7,"name":"Signed up","type":"actions","properties":[]}],"filter_test_accounts":true}`
)

// TestAccConfigResource_lifecycle takes one config of each kind through its
// whole life with the scoped write key: create, update of every writable
// field, import (three ways), out-of-band DELETE, disable and soft-delete
// each repaired by the next apply, attributes handed back to the service,
// a plugin change, and destroy. Every step checks the API's record, not only
// the state, and that the next plan is empty.
func TestAccConfigResource_lifecycle(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		addr := tc.TypeName + ".test"
		var id, replacedID int64
		p0, p1 := tc.Plugins[0], tc.Plugins[1]

		created := tc.Config("test", `  plugin  = `+strconv.FormatInt(p0, 10)+`
  filters = `+filtersLoose)
		updated := tc.Config("test", `  plugin      = `+strconv.FormatInt(p0, 10)+`
  enabled     = true
  order       = 5
  name        = "Acceptance test config"
  description = "Managed by the acceptance tests."
  filters     = `+filtersActions)
		handedBack := tc.Config("test", `  plugin  = `+strconv.FormatInt(p0, 10)+`
  enabled = true`)
		replaced := tc.Config("test", `  plugin  = `+strconv.FormatInt(p1, 10)+`
  enabled = true`)

		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             acctest.CheckDestroyed(t, tc.TypeName, tc.Kind.Collection),
			Steps: []resource.TestStep{
				{
					// Create: name and description come from the plugin,
					// filters are normalised by the service; no diff follows.
					Config:           created,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)),
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("project_id"), knownvalue.StringExact(acctest.ProjectID(t))),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("enabled"), knownvalue.Bool(false)),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("order"), knownvalue.Int64Exact(0)),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("updated_at"), knownvalue.NotNull()),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("config"), knownvalue.NotNull()),
					},
					Check: resource.ComposeAggregateTestCheckFunc(
						acctest.CaptureID(addr, &id),
						tc.CheckAPI(t, addr, acctest.APIRecord{Plugin: p0, Enabled: acctest.Ptr(false), Order: acctest.Ptr(int64(0)),
							Name: acctest.FromPlugin, Description: acctest.FromPlugin, Filters: filtersLooseStored}),
					),
				},
				{
					// Update every writable field in place (one PATCH).
					Config:           updated,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
					Check: resource.ComposeAggregateTestCheckFunc(
						acctest.CheckID(addr, &id, true),
						tc.CheckAPI(t, addr, acctest.APIRecord{Plugin: p0, Enabled: acctest.Ptr(true), Order: acctest.Ptr(int64(5)),
							Name: "Acceptance test config", Description: "Managed by the acceptance tests.",
							Filters: filtersActionsStored}),
					),
				},
				{
					// terraform import project_id/id.
					Config:                  updated,
					ResourceName:            addr,
					ImportState:             true,
					ImportStateIdFunc:       acctest.ImportID(addr, true),
					ImportStateVerify:       true,
					ImportStateVerifyIgnore: []string{"filters"}, // the service's text; compared below
					ImportStateCheck:        checkImportedFilters(filtersActionsStored),
				},
				{
					// terraform import id, with the provider's project.
					Config:                  updated,
					ResourceName:            addr,
					ImportState:             true,
					ImportStateIdFunc:       acctest.ImportID(addr, false),
					ImportStateVerify:       true,
					ImportStateVerifyIgnore: []string{"filters"},
					ImportStateCheck:        checkImportedFilters(filtersActionsStored),
				},
				{
					// An import block: the plan must be a no-op import, so
					// the service's filters text is no diff of the config's.
					Config:            updated,
					ResourceName:      addr,
					ImportState:       true,
					ImportStateKind:   resource.ImportBlockWithID,
					ImportStateIdFunc: acctest.ImportID(addr, true),
				},
				{
					// The live DELETE only disables: noticed and repaired.
					PreConfig: tc.OutOfBand(t, &id, func(ctx context.Context, c *client.Client, project string, id int64) error {
						return c.Delete(ctx, project, tc.Kind.Collection, id)
					}),
					Config: updated,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
					),
					Check: resource.ComposeAggregateTestCheckFunc(
						acctest.CheckID(addr, &id, true),
						tc.CheckAPI(t, addr, acctest.APIRecord{Enabled: acctest.Ptr(true)}),
					),
				},
				{
					// Disabled out of band (PATCH enabled=false): repaired.
					PreConfig: tc.OutOfBand(t, &id, func(ctx context.Context, c *client.Client, project string, id int64) error {
						_, err := c.Update(ctx, project, tc.Kind.Collection, id, client.RecordInput{Enabled: client.Some(false)})
						return err
					}),
					Config:           updated,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
					Check: resource.ComposeAggregateTestCheckFunc(
						acctest.CheckID(addr, &id, true),
						tc.CheckAPI(t, addr, acctest.APIRecord{Enabled: acctest.Ptr(true)}),
					),
				},
				{
					// Soft-deleted out of band: re-created, the old one stays
					// deleted.
					PreConfig: tc.OutOfBand(t, &id, func(ctx context.Context, c *client.Client, project string, id int64) error {
						_, err := c.Update(ctx, project, tc.Kind.Collection, id, client.RecordInput{Deleted: client.Some(true)})
						return err
					}),
					Config:           updated,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)),
					Check: resource.ComposeAggregateTestCheckFunc(
						tc.CheckDeletedOnAPI(t, &id),
						acctest.CheckID(addr, &id, false),
						acctest.CaptureID(addr, &id),
						tc.CheckAPI(t, addr, acctest.APIRecord{Plugin: p0, Enabled: acctest.Ptr(true), Order: acctest.Ptr(int64(5)),
							Name: "Acceptance test config", Filters: filtersActionsStored}),
					),
				},
				{
					// name, description and filters removed: sent as null,
					// the service shows the plugin's name and description.
					// order removed: the service's value is kept.
					Config:           handedBack,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
					Check: resource.ComposeAggregateTestCheckFunc(
						acctest.CheckID(addr, &id, true),
						tc.CheckAPI(t, addr, acctest.APIRecord{Enabled: acctest.Ptr(true), Order: acctest.Ptr(int64(5)),
							Name: acctest.FromPlugin, Description: acctest.FromPlugin, Filters: "null"}),
					),
				},
				{
					// An order set elsewhere (an ordering resource, say) is
					// not fought over.
					PreConfig: tc.OutOfBand(t, &id, func(ctx context.Context, c *client.Client, project string, id int64) error {
						_, err := c.Update(ctx, project, tc.Kind.Collection, id, client.RecordInput{Order: client.Some(int64(9))})
						return err
					}),
					Config:           handedBack,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectEmptyPlan()),
					Check:            tc.CheckAPI(t, addr, acctest.APIRecord{Order: acctest.Ptr(int64(9))}),
				},
				{
					// Another plugin: replaced; the old config is deleted.
					Config: replaced,
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
					),
					Check: resource.ComposeAggregateTestCheckFunc(
						func(*terraform.State) error { replacedID = id; return nil },
						tc.CheckDeletedOnAPI(t, &replacedID),
						acctest.CheckID(addr, &replacedID, false),
						tc.CheckAPI(t, addr, acctest.APIRecord{Plugin: p1, Enabled: acctest.Ptr(true), Order: acctest.Ptr(int64(0)),
							Name: acctest.FromPlugin, Description: acctest.FromPlugin}),
					),
				},
			},
		})
	})
}

// checkImportedFilters checks that imported filters are what the service
// stores for the configured ones.
func checkImportedFilters(want string) resource.ImportStateCheckFunc {
	return func(states []*terraform.InstanceState) error {
		if len(states) != 1 {
			return fmt.Errorf("want one imported instance, got %d", len(states))
		}
		if got := states[0].Attributes["filters"]; !configresource.FiltersEqual(got, want) {
			return fmt.Errorf("imported filters %s, want %s", got, want)
		}
		return nil
	}
}

// TestAccConfigResource_otherKindPlugin creates a config with a plugin of
// the other kind: the apply fails naming the right resource type, and the
// API keeps no active config of it. Not parallel: it compares the whole
// collection before and after.
func TestAccConfigResource_otherKindPlugin(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		var before map[int64]bool
		otherColl := collectionOf(t, tc.OtherType)
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					PreConfig: func() { before = activeIDs(t, otherColl, tc.OtherPlugin) },
					Config:    tc.Config("wrong", "  plugin  = "+strconv.FormatInt(tc.OtherPlugin, 10)+"\n  enabled = true"),
					ExpectError: regexp.MustCompile(`(?s)is not a ` + regexp.QuoteMeta(tc.Kind.PluginNoun) +
						` plugin.*` + tc.OtherType + `.*deleted again`),
				},
				{
					// Nothing left behind, in either collection.
					Config: acctest.ProviderConfig(acctest.KeyWrite),
					Check: func(*terraform.State) error {
						for id := range activeIDs(t, otherColl, tc.OtherPlugin) {
							if !before[id] {
								return fmt.Errorf("config %d of plugin %d was left active", id, tc.OtherPlugin)
							}
						}
						return nil
					},
				},
			},
		})
	})
}

// collectionOf returns the collection of a record resource type.
func collectionOf(t *testing.T, typeName string) client.Collection {
	t.Helper()
	for _, k := range framework.Kinds() {
		if "pipeline"+k.ConfigTypeSuffix() == typeName {
			return k.Collection
		}
	}
	t.Fatalf("no kind for %s", typeName)
	return ""
}

// activeIDs lists the active configs of plugin in a collection.
func activeIDs(t *testing.T, coll client.Collection, plugin int64) map[int64]bool {
	t.Helper()
	recs, err := acctest.API(t).ListAll(context.Background(), acctest.ProjectID(t), coll)
	if err != nil {
		t.Fatalf("listing %s: %v", coll, err)
	}
	ids := map[int64]bool{}
	for _, r := range recs {
		if r.Plugin == plugin && !r.Deleted {
			ids[r.ID] = true
		}
	}
	return ids
}
