package client_test

import (
	"context"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// TestVersionSignals (issue 35): what a client learns of each version of
// the local API from one read of a config, and from one look at the job
// route, for a legacy key and one with scopes: records with filters tell
// B (configs stored, jobs); records without filters tell nothing of
// creates, as C and D store them; today's records (no delivery_rate_24h)
// and a create refused tell E or later; the job route tells B and C from
// the rest, 405 or 403 against 404.
func TestVersionSignals(t *testing.T) {
	type known struct{ value, known bool }
	for _, c := range []struct {
		v                       localapi.Version
		stores, job             known
		dropsFilters            bool
		storesAfterCreate, told known
	}{
		{v: localapi.VersionB, stores: known{true, true}, job: known{true, true}},
		{v: localapi.VersionC, job: known{true, true}, dropsFilters: true},
		{v: localapi.VersionD, job: known{false, true}, dropsFilters: true},
		{v: localapi.VersionE, job: known{false, true}, dropsFilters: true, storesAfterCreate: known{false, true}},
		{v: localapi.VersionE2026, stores: known{false, true}, job: known{false, true}, dropsFilters: true, storesAfterCreate: known{false, true}},
	} {
		for _, key := range []string{localapi.KeyFull, localapi.KeyStar} {
			t.Run(c.v.String()+"/"+key, func(t *testing.T) {
				srv := localapitest.NewTestServer(t, localapi.Options{})
				ctx := context.Background()
				api, err := client.New(client.Config{Host: srv.URL, APIKey: localapi.KeyFull})
				if err != nil {
					t.Fatal(err)
				}
				rec, err := api.Create(ctx, "1", client.Transformations, client.RecordInput{Plugin: client.Some[int64](2), Order: client.Some[int64](1)})
				if err != nil {
					t.Fatal(err)
				}
				if err := srv.SetVersion(c.v); err != nil {
					t.Fatal(err)
				}
				cl, err := client.New(client.Config{Host: srv.URL, APIKey: key})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := cl.Get(ctx, "1", client.Transformations, rec.ID); err != nil {
					t.Fatal(err)
				}
				if stores, told := cl.StoresConfigs(); (known{stores, told}) != c.stores {
					t.Errorf("after a read: stores configs %v, told %v; want %+v", stores, told, c.stores)
				}
				if got := cl.DropsFilters(); got != c.dropsFilters {
					t.Errorf("drops filters %v, want %v", got, c.dropsFilters)
				}
				if has, told := cl.HasJobAction(ctx, "1", client.Transformations, rec.ID); (known{has, told}) != c.job {
					t.Errorf("has the job action %v, told %v; want %+v", has, told, c.job)
				}
				if c.v < localapi.VersionE {
					return
				}
				// A create of an import app, which no hog function template
				// takes: refused (E2026, and E for lack of a template).
				if _, err := cl.Create(ctx, "1", client.ImportApps, client.RecordInput{Plugin: client.Some[int64](3), Order: client.Some[int64](1)}); !client.IsCreationDisabled(err) {
					t.Fatalf("create at %v: %v", c.v, err)
				}
				if stores, told := cl.StoresConfigs(); (known{stores, told}) != c.storesAfterCreate {
					t.Errorf("after a create: stores configs %v, told %v; want %+v", stores, told, c.storesAfterCreate)
				}
			})
		}
	}
}

// TestLearnLooksAtTheProject: Learn reads the first record of the
// collection asked about, else of the other, once per project, and tells
// what that record shows: here version C's, without filters, from an
// import app while the project has no transformation.
func TestLearnLooksAtTheProject(t *testing.T) {
	srv := localapitest.NewTestServer(t, localapi.Options{})
	ctx := context.Background()
	api, err := client.New(client.Config{Host: srv.URL, APIKey: localapi.KeyFull})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.Create(ctx, "1", client.ImportApps, client.RecordInput{Plugin: client.Some[int64](3), Order: client.Some[int64](1)}); err != nil {
		t.Fatal(err)
	}
	if err := srv.SetVersion(localapi.VersionC); err != nil {
		t.Fatal(err)
	}
	srv.ResetCounters()
	api, err = client.New(client.Config{Host: srv.URL, APIKey: localapi.KeyFull})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		api.Learn(ctx, "1", client.Transformations)
	}
	if !api.DropsFilters() {
		t.Error("DropsFilters is false after a look at version C's import app")
	}
	if stores, known := api.StoresConfigs(); known {
		t.Errorf("StoresConfigs told %v from a record without filters, which C and D alike answer", stores)
	}
	if n := srv.Counters()["list"]; n != 2 {
		t.Errorf("%d lists, want 2: the transformations' page, then the import apps'", n)
	}
}
