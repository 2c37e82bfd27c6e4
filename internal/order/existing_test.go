package order_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// TestAccExistingOrder orders the configs of a collection that existed
// before the test, as on a service that no longer creates configs
// (generation 2; against a live instance the collection of the config
// PIPELINE_TEST_<KIND>_CONFIG_ID names): an import block takes the order
// over with the sequence the service holds, and moving the existing config
// to the front shows on the API; each apply is followed by an empty plan.
// Destroying the order changes nothing on the service (CheckDestroy compares
// the sequence with the one the last apply left), and the test then
// sets every config's order back to what it was.
func TestAccExistingOrder(t *testing.T) {
	for _, k := range framework.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			ex := acctest.Existing(t, k)
			sequence := activeSequence(t, ex)
			was := map[int64]int64{}
			for _, rec := range sequence {
				was[rec.ID] = rec.Order
			}
			t.Cleanup(func() { restoreOrders(t, ex, was) })

			var current, front []string
			for _, rec := range sequence {
				current = append(current, client.FormatID(rec.ID))
				if rec.ID != ex.ID {
					front = append(front, client.FormatID(rec.ID))
				}
			}
			front = append([]string{client.FormatID(ex.ID)}, front...)
			var applied []client.Record // the sequence after the last step
			typ, addr := ex.TypeName("order"), ex.TypeName("order")+".all"
			config := func(ids []string) string {
				return ex.ProviderBlock() + fmt.Sprintf("\nimport {\n  to = %s\n  id = %q\n}\n\nresource %q \"all\" {\n  project_id = %q\n  config_ids = [%s]\n}\n",
					addr, ex.Project, typ, ex.Project, strings.Join(ids, ", "))
			}
			ex.Test(t, resource.TestCase{
				Steps: []resource.TestStep{
					{
						Config: config(current),
						Check:  resource.TestCheckResourceAttr(addr, "config_ids.#", fmt.Sprint(len(current))),
					},
					{
						Config: config(front),
						Check: func(*terraform.State) error {
							got := activeSequence(t, ex)
							if len(got) == 0 || got[0].ID != ex.ID {
								return fmt.Errorf("the API's sequence %v, want config %d first", ids(got), ex.ID)
							}
							applied = got
							return nil
						},
					},
				},
				// Destroying the order leaves the service's sequence as the
				// last apply left it (the Cleanup above would hide a reorder).
				CheckDestroy: func(*terraform.State) error {
					got := activeSequence(t, ex)
					if !slices.Equal(orders(got), orders(applied)) {
						return fmt.Errorf("destroying the order changed the API's sequence: %v after the last apply, %v after destroy",
							orders(applied), orders(got))
					}
					return nil
				},
			})
		})
	}
}

// activeSequence returns the configs of the existing config's collection
// that are not deleted, by order (then id).
func activeSequence(t *testing.T, ex *acctest.ExistingConfig) []client.Record {
	t.Helper()
	recs, err := ex.API.ListAll(context.Background(), ex.Project, ex.Kind.Collection)
	if err != nil {
		t.Fatal(err)
	}
	recs = slices.DeleteFunc(recs, func(r client.Record) bool { return r.Deleted })
	configresource.SortByOrder(recs)
	return recs
}

// restoreOrders sets each config's order back to what it was, where it
// changed.
func restoreOrders(t *testing.T, ex *acctest.ExistingConfig, was map[int64]int64) {
	for _, rec := range activeSequence(t, ex) {
		if order, ok := was[rec.ID]; ok && rec.Order != order {
			if _, err := ex.API.Update(context.Background(), ex.Project, ex.Kind.Collection, rec.ID,
				client.RecordInput{Order: client.Some(order)}); err != nil {
				t.Errorf("restoring the order of config %d: %v", rec.ID, err)
			}
		}
	}
}

// orders returns each config's "id:order", in sequence.
func orders(recs []client.Record) []string {
	out := make([]string, len(recs))
	for i := range recs {
		out[i] = fmt.Sprintf("%d:%d", recs[i].ID, recs[i].Order)
	}
	return out
}

func ids(recs []client.Record) []int64 {
	out := make([]int64, len(recs))
	for i := range recs {
		out[i] = recs[i].ID
	}
	return out
}
