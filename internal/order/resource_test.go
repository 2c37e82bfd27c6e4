package order_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
)

// orderCase is one run of the order resource test: a key and what it
// leaves on the API.
type orderCase struct {
	key string
	// final is the API's sequence at the end of each checked step.
	final []string
}

// TestAccOrderResource orders three configs (one disabled) of each kind,
// none of which sets order itself, once with the legacy key (which may call
// rearrange) and once with the scoped write key: both make the same
// requests, a PATCH of each config whose order differs and never rearrange,
// and end in the same API state. Every step checks the API and the
// requests made. Out-of-band reordering and a
// soft-deleted config show as drift and are repaired, a config added out of
// band is placed after the listed ones in one planned update; the order is
// imported by project id. The record resources and the order resource
// together plan nothing after each apply. Each run has a local API of its
// own, as the order resource owns the whole collection.
func TestAccOrderResource(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		acctest.SkipUnlessAcc(t)
		t.Parallel()
		runs := []*orderCase{{key: acctest.KeyFull}, {key: acctest.KeyWrite}}
		// After both runs (parallel subtests end before the parent's
		// cleanup): the same API states.
		t.Cleanup(func() {
			if !t.Failed() && !slices.Equal(runs[0].final, runs[1].final) {
				t.Errorf("the keys leave different API states:\n%s: %q\n%s: %q", runs[0].key, runs[0].final, runs[1].key, runs[1].final)
			}
		})
		for _, run := range runs {
			t.Run(run.key, func(t *testing.T) { testOrderResource(t, tc, run) })
		}
	})
}

func testOrderResource(t *testing.T, tc acctest.KindCase, run *orderCase) {
	var log acctest.RequestLog
	host, _ := acctest.IsolatedAPI(t, log.Wrap)
	api := acctest.ClientFor(t, host, acctest.KeyFull)
	coll := "/api/projects/1/" + string(tc.Kind.Collection) + "/"
	orderType := "pipeline_" + tc.Kind.Name + "_order"
	addr := orderType + ".test"
	ids := map[string]*int64{"a": new(int64), "b": new(int64), "c": new(int64)}
	var added int64
	var last string

	ordered := func(names ...string) string {
		refs := make([]string, len(names))
		for i, n := range names {
			refs[i] = tc.TypeName + "." + n + ".id"
			if n == "unknown" {
				refs[i] = "999999"
			}
		}
		return fmt.Sprintf(`%[1]s
resource %[2]q "a" {
  plugin  = %[3]d
  name    = "a"
  enabled = true
}

resource %[2]q "b" {
  plugin  = %[4]d
  name    = "b"
  enabled = true
}

resource %[2]q "c" {
  plugin  = %[3]d
  name    = "c"
  enabled = false
}

resource %[5]q "test" {
  config_ids = [%[6]s]
}
`, acctest.ProviderBlock(host, run.key, "1"), tc.TypeName, tc.Plugins[0], tc.Plugins[1], orderType, strings.Join(refs, ", "))
	}
	// patches expects the step's PATCH requests, as paths below the
	// collection, in any order: they go out side by side.
	patches := func(configs ...*int64) resource.TestCheckFunc {
		return func(*terraform.State) error {
			var want, got []string
			for _, id := range configs {
				want = append(want, strconv.FormatInt(*id, 10)+"/")
			}
			for _, r := range log.Take() {
				if p, ok := strings.CutPrefix(r, "PATCH "+coll); ok {
					got = append(got, p)
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				return fmt.Errorf("PATCH requests %q, want %q", got, want)
			}
			return nil
		}
	}
	// expect checks that the API holds the named configs in sequence,
	// numbered from 1, and that the state's config_ids and orders say the
	// same; extra configs, not listed, are expected after them, in
	// unlisted_config_ids.
	expect := func(names []string, extra ...*int64) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			recs, err := api.ListAll(context.Background(), "1", tc.Kind.Collection)
			if err != nil {
				return err
			}
			var active []client.Record
			for _, r := range recs {
				if !r.Deleted {
					active = append(active, r)
				}
			}
			configresource.SortByOrder(active)
			var want []int64
			for _, n := range names {
				want = append(want, *ids[n])
			}
			for _, id := range extra {
				want = append(want, *id)
			}
			var got, seq []string
			for i, r := range active {
				got = append(got, strconv.FormatInt(r.ID, 10))
				seq = append(seq, fmt.Sprintf("%s:%d:%v", acctest.Deref(r.Name), r.Order, r.Enabled))
				if i < len(names) && r.Order != int64(i+1) {
					return fmt.Errorf("config %d has order %d, want %d", r.ID, r.Order, i+1)
				}
			}
			if wantS := strings.Fields(strings.Trim(fmt.Sprint(want), "[]")); !slices.Equal(got, wantS) {
				return fmt.Errorf("API sequence %q, want %q", got, wantS)
			}
			attrs := s.RootModule().Resources[addr].Primary.Attributes
			if attrs["config_ids.#"] != strconv.Itoa(len(names)) || attrs["orders.%"] != strconv.Itoa(len(names)+len(extra)) ||
				attrs["unlisted_config_ids.#"] != strconv.Itoa(len(extra)) {
				return fmt.Errorf("state has %s config_ids, %s unlisted_config_ids and %s orders, want %d, %d and %d",
					attrs["config_ids.#"], attrs["unlisted_config_ids.#"], attrs["orders.%"], len(names), len(extra), len(names)+len(extra))
			}
			for i, id := range extra {
				if got, want := attrs[fmt.Sprintf("unlisted_config_ids.%d", i)], strconv.FormatInt(*id, 10); got != want {
					return fmt.Errorf("state unlisted_config_ids.%d = %s, want %s", i, got, want)
				}
			}
			for i, n := range names {
				id := strconv.FormatInt(*ids[n], 10)
				if attrs[fmt.Sprintf("config_ids.%d", i)] != id || attrs["orders."+id] != strconv.Itoa(i+1) {
					return fmt.Errorf("state config_ids.%d = %s, orders.%s = %s; want %s, %d",
						i, attrs[fmt.Sprintf("config_ids.%d", i)], id, attrs["orders."+id], id, i+1)
				}
			}
			last = strings.Join(seq, " ")
			return nil
		}
	}
	// snapshot keeps the API's sequence that expect saw, for the comparison
	// of both runs.
	snapshot := func(*terraform.State) error {
		run.final = append(run.final, last)
		return nil
	}
	take := func() { log.Take() }
	update := acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate))

	steps := []resource.TestStep{
		{
			// The disabled config first.
			Config:           ordered("c", "a", "b"),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)),
			Check: resource.ComposeAggregateTestCheckFunc(
				acctest.CaptureID(tc.TypeName+".a", ids["a"]),
				acctest.CaptureID(tc.TypeName+".b", ids["b"]),
				acctest.CaptureID(tc.TypeName+".c", ids["c"]),
				expect([]string{"c", "a", "b"}),
				snapshot,
				patches(ids["a"], ids["b"], ids["c"]),
			),
		},
		{
			// Re-ordered out of band: drift, and only a is written back.
			PreConfig: func() {
				setOrder(t, api, tc, *ids["a"], 0)
				take()
			},
			Config:           ordered("c", "a", "b"),
			ConfigPlanChecks: update,
			Check: resource.ComposeAggregateTestCheckFunc(
				expect([]string{"c", "a", "b"}),
				snapshot,
				patches(ids["a"]),
			),
		},
		{
			// A new sequence.
			PreConfig:        take,
			Config:           ordered("a", "b", "c"),
			ConfigPlanChecks: update,
			Check: resource.ComposeAggregateTestCheckFunc(
				expect([]string{"a", "b", "c"}),
				snapshot,
				patches(ids["a"], ids["b"], ids["c"]),
			),
		},
	}
	if run.key == acctest.KeyWrite {
		// The rest does not depend on the key: once, with the scoped one.
		steps = append(steps, []resource.TestStep{
			{
				// A config added out of band (enabled, order 0), not listed:
				// unlisted_configs defaults to "last", so the plan moves it
				// after the listed ones, once; the next plan is empty.
				PreConfig: func() {
					added = acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{
						Plugin: client.Some(tc.Plugins[1]), Order: client.Some(int64(0)), Enabled: client.Some(true), Name: client.Some("d"),
					}).ID
					take()
				},
				Config:           ordered("a", "b", "c"),
				ConfigPlanChecks: update,
				Check: resource.ComposeAggregateTestCheckFunc(
					expect([]string{"a", "b", "c"}, &added),
					patches(&added),
				),
			},
			{
				// Gone again (soft-deleted): nothing to do.
				PreConfig: func() {
					if _, err := api.Update(context.Background(), "1", tc.Kind.Collection, added, client.RecordInput{Deleted: client.Some(true)}); err != nil {
						t.Fatal(err)
					}
				},
				Config:           ordered("a", "b", "c"),
				ConfigPlanChecks: acctest.EmptyPlanAfterApply(plancheck.ExpectEmptyPlan()),
				Check:            expect([]string{"a", "b", "c"}),
			},
			{
				// A config the collection does not have.
				Config:      ordered("a", "b", "c", "unknown"),
				ExpectError: regexp.MustCompile(`(?s)Unknown configs in config_ids.*999999`),
			},
			{
				// terraform import by project id.
				Config:            ordered("a", "b", "c"),
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     "1",
				ImportStateVerify: true,
			},
			{
				// b soft-deleted out of band: the record resource re-creates
				// it and the order takes the new id in its place.
				PreConfig: func() {
					if _, err := api.Update(context.Background(), "1", tc.Kind.Collection, *ids["b"], client.RecordInput{Deleted: client.Some(true)}); err != nil {
						t.Fatal(err)
					}
				},
				Config:           ordered("a", "b", "c"),
				ConfigPlanChecks: update,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureID(tc.TypeName+".b", ids["b"]),
					expect([]string{"a", "b", "c"}),
				),
			},
		}...)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// setOrder changes a config's order behind Terraform's back.
func setOrder(t *testing.T, api *client.Client, tc acctest.KindCase, id, order int64) {
	t.Helper()
	if _, err := api.Update(context.Background(), "1", tc.Kind.Collection, id, client.RecordInput{Order: client.Some(order)}); err != nil {
		t.Fatal(err)
	}
}
