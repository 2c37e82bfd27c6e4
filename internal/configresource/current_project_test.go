package configresource_test

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccConfigResource_currentProject: "@current" and the project's id
// address the same configs, so writing one for the other never replaces a
// config: a provider whose project_id changes form plans nothing, an
// import by ID in either form under a provider of the other plans a no-op
// import, and a configured project_id in the other form is an update that
// sends nothing. Another project is still a replacement, from an id or from
// "@current". The local API's keys have project 1 as their current project.
func TestAccConfigResource_currentProject(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		acctest.SkipUnlessAcc(t)
		host, local := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, acctest.KeyFull)
		addr := tc.TypeName + ".test"
		cfg := func(provider, project string) string {
			body := "  plugin = " + strconv.FormatInt(tc.Plugins[0], 10)
			if project != "" {
				body += fmt.Sprintf("\n  project_id = %q", project)
			}
			return acctest.ProviderBlock(host, acctest.KeyFull, provider) + tc.Resource("test", body)
		}
		importID := func(project string) resource.ImportStateIdFunc {
			return func(s *terraform.State) (string, error) {
				return project + "/" + s.RootModule().Resources[addr].Primary.ID, nil
			}
		}
		var id, replaced int64
		noWrites := func(*terraform.State) error {
			c := local.Counters()
			local.ResetCounters()
			if n := c["create"] + c["update"] + c["delete"]; n != 0 {
				return fmt.Errorf("made %d writes, want none: %v", n, c)
			}
			return nil
		}
		inProject := func(project string, id *int64) resource.TestCheckFunc {
			return func(*terraform.State) error {
				rec, err := api.Get(context.Background(), project, tc.Kind.Collection, *id)
				if err != nil {
					return fmt.Errorf("config %d in project %s: %w", *id, project, err)
				}
				if rec.Deleted {
					return fmt.Errorf("config %d in project %s is deleted", *id, project)
				}
				return nil
			}
		}
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{Config: cfg("1", ""), Check: resource.ComposeTestCheckFunc(acctest.CaptureID(addr, &id), resetCounters(local))},
				{
					// The provider's project written the other way: nothing.
					Config:            cfg("@current", ""),
					ConfigPlanChecks:  acctest.EmptyPlanAfterApply(plancheck.ExpectEmptyPlan()),
					ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("project_id"), knownvalue.StringExact("1"))},
					Check:             resource.ComposeTestCheckFunc(acctest.CheckID(addr, &id, true), noWrites),
				},
				{
					// Imports in either form under a provider of the other.
					Config: cfg("@current", ""), ResourceName: addr, ImportState: true,
					ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: importID("1"),
				},
				{
					Config: cfg("1", ""), ResourceName: addr, ImportState: true,
					ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: importID("@current"),
				},
				{
					// A configured project_id in the other form: an update
					// of project_id alone, which sends nothing.
					Config: cfg("1", "@current"),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("project_id"), knownvalue.StringExact("@current")),
					),
					Check: resource.ComposeTestCheckFunc(acctest.CheckID(addr, &id, true), noWrites),
				},
				{
					// Another project: a replacement.
					Config:           cfg("@current", "2"),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)),
					Check:            resource.ComposeTestCheckFunc(acctest.CheckID(addr, &id, false), acctest.CaptureID(addr, &replaced), inProject("2", &replaced)),
				},
				{
					// From project 2 back to the provider's "@current" (1).
					Config:           cfg("@current", ""),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)),
					Check:            resource.ComposeTestCheckFunc(acctest.CheckID(addr, &replaced, false), acctest.CaptureID(addr, &id), inProject("1", &id)),
				},
			},
		})
	})
}

// resetCounters zeroes the local API's request counters.
func resetCounters(local *localapi.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		local.ResetCounters()
		return nil
	}
}

// TestConfigResource_currentProjectProtocol: "@current" and the project's
// id address the same configs. A config imported, by ID or by identity, in
// one form under a provider whose project_id is the other form plans no
// replacement and keeps the imported form in state and identity; a
// configured project_id in the other form is an update that sends nothing
// and keeps the identity; another project is still a replacement. It calls
// the provider's protocol 6 server as Terraform 1.12+ does (identities),
// with a provider of its own per case, so that no case learns from
// another what "@current" stands for. The local API's keys have project 1
// as their current project.
func TestConfigResource_currentProjectProtocol(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		host, local := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, acctest.KeyFull)
		ctx := context.Background()
		idIn := map[string]int64{}
		for _, project := range []string{"1", "2"} {
			rec, err := api.Create(ctx, project, tc.Kind.Collection, client.RecordInput{
				Plugin: client.Some(tc.Plugins[0]), Order: client.Some(int64(1)),
			})
			if err != nil {
				t.Fatal(err)
			}
			idIn[project] = rec.ID
		}

		for _, c := range []struct {
			name            string
			provider        string
			importID        string // else by identity
			identityProject string // the identity's project_id; "" leaves it to the provider's
			recordProject   string // the project the config is in
			configured      string // the resource's project_id; "" leaves it out
			wantReplace     bool
			wantProject     string
		}{
			{name: "ID 1/N under @current", provider: "@current", importID: "1/%d", recordProject: "1", wantProject: "1"},
			{name: "identity 1 under @current", provider: "@current", identityProject: "1", recordProject: "1", wantProject: "1"},
			{name: "ID @current/N under 1", provider: "1", importID: "@current/%d", recordProject: "1", wantProject: "@current"},
			{name: "identity @current under 1", provider: "1", identityProject: "@current", recordProject: "1", wantProject: "@current"},
			{
				name: "configured @current, imported as 1", provider: "1", importID: "1/%d", recordProject: "1",
				configured: "@current", wantProject: "@current",
			},
			{
				name: "configured 1, imported as @current", provider: "@current", identityProject: "@current", recordProject: "1",
				configured: "1", wantProject: "1",
			},
			// Another project: @current (1) against 2, either way round.
			{name: "ID 2/N under @current", provider: "@current", importID: "2/%d", recordProject: "2", wantReplace: true, wantProject: "@current"},
			{
				name: "identity @current, configured 2", provider: "@current", identityProject: "@current", recordProject: "1",
				configured: "2", wantReplace: true, wantProject: "2",
			},
		} {
			t.Run(c.name, func(t *testing.T) {
				srv := acctest.NewProviderServerFor(t, host, acctest.KeyFull, c.provider)
				typ, identityType := srv.ResourceType(t, tc.TypeName), srv.IdentityType(t, tc.TypeName)
				id := idIn[c.recordProject]
				req := &tfprotov6.ImportResourceStateRequest{TypeName: tc.TypeName}
				if c.importID != "" {
					req.ID = fmt.Sprintf(c.importID, id)
				} else {
					ident := map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.Number, id)}
					if c.identityProject != "" {
						ident["project_id"] = tftypes.NewValue(tftypes.String, c.identityProject)
					}
					req.Identity = &tfprotov6.ResourceIdentityData{IdentityData: acctest.DynamicValue(t, identityType, ident)}
				}
				imported, err := srv.ImportResourceState(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				acctest.FailOnDiagnostics(t, "ImportResourceState", imported.Diagnostics)
				ir := imported.ImportedResources[0]
				importedProject := acctest.StringOf(t, acctest.Attributes(t, ir.State, typ)["project_id"])
				read, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
					TypeName: tc.TypeName, CurrentState: ir.State, CurrentIdentity: ir.Identity, Private: ir.Private,
				})
				if err != nil {
					t.Fatal(err)
				}
				acctest.FailOnDiagnostics(t, "ReadResource", read.Diagnostics)

				config := map[string]tftypes.Value{"plugin": tftypes.NewValue(tftypes.Number, tc.Plugins[0])}
				if c.configured != "" {
					config["project_id"] = tftypes.NewValue(tftypes.String, c.configured)
				}
				local.ResetCounters()
				plan := srv.Plan(t, tc.TypeName, read.NewState, read.Private, read.NewIdentity, config)
				acctest.FailOnDiagnostics(t, "PlanResourceChange", plan.Diagnostics)
				replaces := slices.ContainsFunc(plan.RequiresReplace, func(p *tftypes.AttributePath) bool {
					return p.Equal(tftypes.NewAttributePath().WithAttributeName("project_id"))
				})
				planned := acctest.StringOf(t, acctest.Attributes(t, plan.PlannedState, typ)["project_id"])
				if replaces != c.wantReplace {
					t.Errorf("state's project %q, plan's %q: replacement %v, want %v (requires replace: %v)",
						importedProject, planned, replaces, c.wantReplace, plan.RequiresReplace)
				}
				if planned != c.wantProject {
					t.Errorf("planned project_id %q, want %q", planned, c.wantProject)
				}
				if gets := local.Counters()["retrieve"]; gets > 1 {
					t.Errorf("the plan made %d GETs, want at most one lookup of the config", gets)
				}
				if c.wantReplace {
					return
				}
				if !sameIdentity(t, identityType, plan.PlannedIdentity, ir.Identity) {
					t.Errorf("planned identity %v, want the imported one %v", plan.PlannedIdentity, ir.Identity)
				}

				// The plan applies without a request, and the identity stays.
				local.ResetCounters()
				applied, err := srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
					TypeName: tc.TypeName, PriorState: read.NewState, PlannedState: plan.PlannedState,
					Config: acctest.DynamicValue(t, typ, config), PlannedPrivate: plan.PlannedPrivate, PlannedIdentity: plan.PlannedIdentity,
				})
				if err != nil {
					t.Fatal(err)
				}
				acctest.FailOnDiagnostics(t, "ApplyResourceChange", applied.Diagnostics)
				if n := local.Counters()["total"]; n != 0 {
					t.Errorf("applying made %d requests, want none: %v", n, local.Counters())
				}
				if got := acctest.StringOf(t, acctest.Attributes(t, applied.NewState, typ)["project_id"]); got != c.wantProject {
					t.Errorf("applied project_id %q, want %q", got, c.wantProject)
				}
				if !sameIdentity(t, identityType, applied.NewIdentity, ir.Identity) {
					t.Errorf("identity after apply %v, want the imported one %v", applied.NewIdentity, ir.Identity)
				}
			})
		}
	})
}

// sameIdentity reports whether two identities hold the same project_id and
// id.
func sameIdentity(t *testing.T, typ tftypes.Type, a, b *tfprotov6.ResourceIdentityData) bool {
	t.Helper()
	if a == nil || b == nil {
		return a == b
	}
	x, y := acctest.Attributes(t, a.IdentityData, typ), acctest.Attributes(t, b.IdentityData, typ)
	var n, m big.Float
	return acctest.StringOf(t, x["project_id"]) == acctest.StringOf(t, y["project_id"]) && acctest.StringOf(t, x["project_id"]) != "" &&
		x["id"].As(&n) == nil && y["id"].As(&m) == nil && n.Cmp(&m) == 0
}
