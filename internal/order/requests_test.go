package order_test

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// TestOrderResource_requests drives the order resource over the protocol
// with the legacy key, which may call rearrange: the provider lists the
// collection once and then PATCHes the order of each config whose order
// differs, the disabled one too, and never calls rearrange. A config
// missing from config_ids is placed after the listed ones (unlisted_configs
// defaults to "last"), without a warning, and the state shows it in
// unlisted_config_ids. Destroy makes no request.
func TestOrderResource_requests(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		var log acctest.RequestLog
		host, _ := acctest.IsolatedAPI(t, log.Wrap)
		api := acctest.ClientFor(t, host, acctest.KeyFull)
		a := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{Plugin: client.Some(tc.Plugins[0]), Order: client.Some(int64(0)), Enabled: client.Some(true)})
		b := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{Plugin: client.Some(tc.Plugins[1]), Order: client.Some(int64(0))})
		c := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{Plugin: client.Some(tc.Plugins[0]), Order: client.Some(int64(0)), Enabled: client.Some(true)})
		log.Take()

		srv := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1")
		orderType := "pipeline_" + tc.Kind.Name + "_order"
		coll := "/api/projects/1/" + string(tc.Kind.Collection) + "/"
		ids := tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, []tftypes.Value{
			tftypes.NewValue(tftypes.Number, b.ID), tftypes.NewValue(tftypes.Number, a.ID),
		})
		created := srv.Apply(t, orderType, nil, nil, map[string]tftypes.Value{"config_ids": ids})
		acctest.FailOnDiagnostics(t, "create", created.Diagnostics)
		patch := func(r *client.Record) string { return "PATCH " + coll + strconv.FormatInt(r.ID, 10) + "/" }
		reqs, want := log.Take(), []string{"GET " + coll, patch(a), patch(b), patch(c)}
		if len(reqs) > 1 {
			slices.Sort(reqs[1:]) // the PATCHes go out side by side
		}
		if slices.Sort(want[1:]); !slices.Equal(reqs, want) {
			t.Errorf("requests %q, want %q", reqs, want)
		}
		if len(created.Diagnostics) != 0 {
			t.Errorf("diagnostics %v, want none", created.Diagnostics)
		}
		state := acctest.Attributes(t, created.NewState, srv.ResourceType(t, orderType))
		if want := tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, []tftypes.Value{
			tftypes.NewValue(tftypes.Number, c.ID),
		}); !state["unlisted_config_ids"].Equal(want) {
			t.Errorf("unlisted_config_ids %s, want %s", state["unlisted_config_ids"], want)
		}
		recs, err := api.ListAll(context.Background(), "1", tc.Kind.Collection)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int64]int64{}
		for _, r := range recs {
			got[r.ID] = r.Order
		}
		if got[b.ID] != 1 || got[a.ID] != 2 || got[c.ID] != 3 {
			t.Errorf("orders %v, want %d:1 %d:2 %d:3", got, b.ID, a.ID, c.ID)
		}

		log.Take() // the check's own list
		destroyed := srv.Apply(t, orderType, created.NewState, nil, nil)
		acctest.FailOnDiagnostics(t, "destroy", destroyed.Diagnostics)
		if reqs := log.Take(); len(reqs) != 0 {
			t.Errorf("destroy made requests %q", reqs)
		}
	})
}
