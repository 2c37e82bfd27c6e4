package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccOrder_onlyNamedConfigs (issue 35): on a project whose config ids
// overlap its plugin ids, as on any real instance, an order resource names
// configs whose ids are the plugin ids of other enabled configs, one of them
// in the other collection, on every version of the service that has the
// API. Until PostHog PR #25065 (versions B and C) the service's rearrange
// read its keys as plugin ids, so a request keyed by these config ids would
// have reordered those other configs. With the legacy key (which may call
// rearrange where the version lets it) the orders of every config of the
// project, both collections, are checked before and after each apply: the
// first apply (in sequence already) changes none, the second changes the
// named ones to the orders its plan showed and no other, and the next plan
// is empty. The configs are made at B: from E on the service makes none.
func TestAccOrder_onlyNamedConfigs(t *testing.T) {
	for _, v := range []localapi.Version{localapi.VersionB, localapi.VersionC, localapi.VersionD, localapi.VersionE, localapi.VersionE2026} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
				t.Parallel()
				orderOnlyNamedConfigs(t, tc, v)
			})
		})
	}
}

// orderOnlyNamedConfigs is TestAccOrder_onlyNamedConfigs of kind tc at
// version v.
func orderOnlyNamedConfigs(t *testing.T, tc acctest.KindCase, v localapi.Version) {
	other := otherKind(tc.Kind)
	p0, p1, q := tc.Plugins[0], tc.Plugins[1], tc.OtherPlugin
	var n1, n2, n3 *client.Record
	host, _ := acctest.IsolatedVersionAPI(t, v, nil, func(api *client.Client) {
		// Named: configs of plugin p0 whose ids are p1 and q, then one more.
		// Others: enabled configs of plugins p1 and q, the latter in the
		// other collection, which a rearrange keyed by plugin id would move.
		named := map[int64]*client.Record{}
		for _, id := range slices.Sorted(slices.Values([]int64{p1, q})) {
			named[id] = createWithID(t, api, tc.Kind.Collection, id, enabledConfig(p0, map[int64]int64{p1: 1, q: 2}[id]))
		}
		n1, n2 = named[p1], named[q]
		n3 = acctest.MustCreate(t, api, tc.Kind.Collection, enabledConfig(p0, 3))
		acctest.MustCreate(t, api, tc.Kind.Collection, enabledConfig(p1, 4))
		acctest.MustCreate(t, api, other.Collection, enabledConfig(q, 7))
	})
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	before := projectOrders(t, api)
	for _, n := range []*client.Record{n1, n2} {
		if !pluginOfAnother(before, n.ID) {
			t.Fatalf("no other enabled config has plugin %d, config %d's id: the ids do not overlap\n%v", n.ID, n.ID, before)
		}
	}

	order := "pipeline_" + tc.Kind.Name + "_order.this"
	config := func(ids ...*client.Record) string {
		refs := make([]string, len(ids))
		for i, r := range ids {
			refs[i] = client.FormatID(r.ID)
		}
		return fmt.Sprintf("provider \"pipeline\" {\n  host       = %q\n  api_key    = %q\n  project_id = \"1\"\n}\n\n"+
			"resource \"pipeline_%s_order\" \"this\" {\n  config_ids = [%s]\n}\n", host, localapi.KeyFull, tc.Kind.Name, strings.Join(refs, ", "))
	}
	tf := acctest.NewTerraform(t, config(n1, n2, n3), nil)
	mustApply(t, tf)
	if after := projectOrders(t, api); !maps.Equal(after, before) {
		t.Fatalf("an order already in sequence changed the service:\nbefore %v\nafter  %v", before, after)
	}

	tf.WriteConfig(config(n2, n3, n1))
	mustRun(t, tf, "plan", "-out=reorder.tfplan", "-no-color")
	planned := plannedOrders(t, tf, "reorder.tfplan", order)
	mustApply(t, tf, "reorder.tfplan")
	after := projectOrders(t, api)
	for id, was := range before {
		want := was.order
		if o, ok := planned[id]; ok {
			want = o
		}
		if after[id].order != want {
			t.Errorf("config %d (plugin %d) has order %d after the apply, want %d (%d before, planned %v)",
				id, was.plugin, after[id].order, want, was.order, planned)
		}
	}
	for _, n := range []*client.Record{n2, n3, n1} {
		if after[n.ID].order == before[n.ID].order {
			t.Errorf("config %d, named, kept its order %d: the apply did not reorder it", n.ID, after[n.ID].order)
		}
	}
	if len(after) != len(before) {
		t.Errorf("the project's configs went from %v to %v", before, after)
	}
	tf.EmptyPlan("after the apply")
}

// TestAccOrder_halfDone (issue 35): orders written config by config can stop
// part-way. The service fails every PATCH after the first two (503, not
// retried): the apply fails saying how far it got; after an update, the
// state holds what the service holds, so the next plan shows the orders
// still to set, with a refresh and without; after a create the order is not
// in the state and the next plan creates it. Once the service answers,
// apply finishes and the plan is empty.
func TestAccOrder_halfDone(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		// While failing, the PATCHes after the first passing ones fail.
		var failing atomic.Bool
		var passing atomic.Int64
		failAfter := func(n int64) { passing.Store(n); failing.Store(true) }
		host, _ := acctest.IsolatedAPI(t, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPatch && failing.Load() && passing.Add(-1) < 0 {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusServiceUnavailable)
					_, _ = w.Write([]byte(`{"type": "server_error", "code": "error", "detail": "Service unavailable.", "attr": null}`))
					return
				}
				h.ServeHTTP(w, r)
			})
		})
		api := acctest.ClientFor(t, host, localapi.KeyFull)
		var recs []*client.Record
		for i := range 5 {
			recs = append(recs, acctest.MustCreate(t, api, tc.Kind.Collection, enabledConfig(tc.Plugins[i%2], int64(i+1))))
		}
		order := "pipeline_" + tc.Kind.Name + "_order.this"
		config := func(ids []*client.Record) string {
			refs := make([]string, len(ids))
			for i, r := range ids {
				refs[i] = client.FormatID(r.ID)
			}
			return fmt.Sprintf("provider \"pipeline\" {\n  host        = %q\n  api_key     = %q\n  project_id  = \"1\"\n  max_retries = 0\n}\n\n"+
				"resource \"pipeline_%s_order\" \"this\" {\n  config_ids = [%s]\n}\n", host, localapi.KeyWrite, tc.Kind.Name, strings.Join(refs, ", "))
		}
		reversed := slices.Clone(recs)
		slices.Reverse(reversed)

		// A create that stops after two of its four writes (the middle
		// config keeps its order).
		tf := acctest.NewTerraform(t, config(reversed), nil)
		failAfter(2)
		out, err := tf.Run("apply", "-auto-approve", "-no-color")
		failing.Store(false)
		if err == nil || !strings.Contains(flat(out), "2 of the 4 orders this apply writes were set before the failure") {
			t.Fatalf("the apply that failed part-way: %v, want an error saying 2 of 4 orders were set\n%s", err, out)
		}
		if _, ok := tf.State()[order]; ok {
			t.Errorf("the failed create left the order in the state")
		}
		if plan, code := tf.PlanExitCode(); code != 2 || !strings.Contains(plan, order+" will be created") {
			t.Errorf("the plan after the failed create: exit code %d, want 2 creating the order\n%s", code, plan)
		}
		mustApply(t, tf)
		checkSequence(t, api, tc, reversed)
		tf.EmptyPlan("after the create finished")

		// An update that stops after two of its four writes.
		tf.WriteConfig(config(recs))
		failAfter(2)
		out, err = tf.Run("apply", "-auto-approve", "-no-color")
		failing.Store(false)
		if err == nil || !strings.Contains(flat(out), "2 of the 4 orders this apply writes were set before the failure") {
			t.Fatalf("the update that failed part-way: %v, want an error saying 2 of 4 orders were set\n%s", err, out)
		}
		service := projectOrders(t, api)
		var stateOrders map[string]int64
		if err := json.Unmarshal(tf.State()[order].Attributes["orders"], &stateOrders); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if got := stateOrders[client.FormatID(r.ID)]; got != service[r.ID].order {
				t.Errorf("after the failed update the state has config %d at order %d, the service %d", r.ID, got, service[r.ID].order)
			}
		}
		for _, args := range [][]string{{"-refresh=false"}, nil} {
			plan, code := tf.PlanExitCode(args...)
			if code != 2 {
				t.Errorf("the plan %v after the failed update: exit code %d, want 2 (the orders still to set)\n%s", args, code, plan)
			}
			// Each config still out of place moves from the order the
			// service holds to its own; the others do not move.
			for i, r := range recs {
				want := ""
				if has := service[r.ID].order; has != int64(i+1) {
					want = fmt.Sprintf("%d -> %d", has, i+1)
				}
				got := ""
				if m := regexp.MustCompile(fmt.Sprintf(`~ "%d" = (\d+ -> \d+)`, r.ID)).FindStringSubmatch(plan); m != nil {
					got = m[1]
				}
				if got != want {
					t.Errorf("the plan %v after the failed update moves config %d %q, want %q (the service holds %d)\n%s",
						args, r.ID, got, want, service[r.ID].order, plan)
				}
			}
		}
		mustApply(t, tf)
		checkSequence(t, api, tc, recs)
		tf.EmptyPlan("after the update finished")
	})
}

// placed is a config's plugin and order on the service.
type placed struct{ plugin, order int64 }

// projectOrders returns every active config of project 1, both
// collections, by id.
func projectOrders(t *testing.T, api *client.Client) map[int64]placed {
	t.Helper()
	out := map[int64]placed{}
	for _, k := range framework.Kinds() {
		recs, err := api.ListAll(context.Background(), "1", k.Collection)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if !r.Deleted {
				out[r.ID] = placed{r.Plugin, r.Order}
			}
		}
	}
	return out
}

// pluginOfAnother reports whether a config other than id has plugin id.
func pluginOfAnother(configs map[int64]placed, id int64) bool {
	for other, p := range configs {
		if other != id && p.plugin == id {
			return true
		}
	}
	return false
}

// createWithID creates a config with in that gets id, creating and deleting
// configs of its collection until the shared id sequence reaches it.
func createWithID(t *testing.T, api *client.Client, coll client.Collection, id int64, in client.RecordInput) *client.Record {
	t.Helper()
	for {
		rec := acctest.MustCreate(t, api, coll, in)
		switch {
		case rec.ID == id:
			return rec
		case rec.ID > id:
			t.Fatalf("the id sequence is past %d (at %d): no config can get it", id, rec.ID)
		}
		if _, err := api.Update(context.Background(), "1", coll, rec.ID, client.RecordInput{Deleted: client.Some(true)}); err != nil {
			t.Fatal(err)
		}
	}
}

// enabledConfig is an enabled config of plugin at order.
func enabledConfig(plugin, order int64) client.RecordInput {
	return client.RecordInput{Plugin: client.Some(plugin), Order: client.Some(order), Enabled: client.Some(true)}
}

// otherKind is the kind that is not k.
func otherKind(k framework.Kind) framework.Kind {
	for _, o := range framework.Kinds() {
		if o.Name != k.Name {
			return o
		}
	}
	panic("one kind only")
}

// plannedOrders returns the orders a saved plan gives the order resource at
// addr, by config id.
func plannedOrders(t *testing.T, tf *acctest.Terraform, planFile, addr string) map[int64]int64 {
	t.Helper()
	out, err := tf.Run("show", "-json", planFile)
	if err != nil {
		t.Fatalf("terraform show: %v\n%s", err, out)
	}
	var plan struct {
		ResourceChanges []struct {
			Address string
			Change  struct {
				Actions []string
				After   struct {
					Orders map[string]int64
				}
			}
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	for _, rc := range plan.ResourceChanges {
		if rc.Address != addr {
			continue
		}
		if !slices.Equal(rc.Change.Actions, []string{"update"}) || len(rc.Change.After.Orders) == 0 {
			t.Fatalf("the plan %v the order, with orders %v: want an update that knows them", rc.Change.Actions, rc.Change.After.Orders)
		}
		orders := map[int64]int64{}
		for k, v := range rc.Change.After.Orders {
			id, err := strconv.ParseInt(k, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			orders[id] = v
		}
		return orders
	}
	t.Fatalf("the plan has no change of %s", addr)
	return nil
}

// checkSequence checks that the collection's active configs run as recs say.
func checkSequence(t *testing.T, api *client.Client, tc acctest.KindCase, recs []*client.Record) {
	t.Helper()
	all := projectOrders(t, api)
	for i := 1; i < len(recs); i++ {
		if a, b := all[recs[i-1].ID].order, all[recs[i].ID].order; a >= b {
			t.Errorf("%s: config %d (order %d) does not run before config %d (order %d)", tc.Kind.Name, recs[i-1].ID, a, recs[i].ID, b)
		}
	}
}

// flat is Terraform's output with the frame of its diagnostics taken out
// and each run of whitespace made one space, as it wraps their text.
func flat(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), " ")
}
