package localapi_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestVersionNames: each version by its name in the notes' table, in any
// letter case, and the generations of earlier versions of this API as the
// versions they stand for.
func TestVersionNames(t *testing.T) {
	for _, v := range localapi.Versions() {
		for _, name := range []string{v.String(), strings.ToLower(v.String())} {
			if got, err := localapi.ParseVersion(name); err != nil || got != v {
				t.Errorf("ParseVersion(%q) = %v, %v; want %v", name, got, err, v)
			}
		}
	}
	if _, err := localapi.ParseVersion("e2026"); err != nil {
		t.Errorf("ParseVersion(e2026): %v", err)
	}
	for _, bad := range []string{"", "A", "G", "E2025", "1"} {
		if _, err := localapi.ParseVersion(bad); err == nil {
			t.Errorf("ParseVersion(%q) succeeded", bad)
		}
	}
	for _, c := range []struct {
		opts localapi.Options
		want localapi.Version
		gen  int
	}{
		{localapi.Options{}, localapi.VersionB, 1},
		{localapi.Options{Generation: 1}, localapi.VersionB, 1},
		{localapi.Options{Generation: 2}, localapi.VersionE, 2},
		{localapi.Options{Generation: 3}, localapi.VersionF, 3},
		{localapi.Options{Today: true}, localapi.VersionE2026, 2},
		{localapi.Options{Today: true, Generation: 1}, localapi.VersionB, 1},
		{localapi.Options{Version: localapi.VersionC}, localapi.VersionC, 1},
		{localapi.Options{Version: localapi.VersionD, Generation: 3}, localapi.VersionD, 1},
	} {
		a := newAPI(t, c.opts)
		if got, gen := a.srv.Version(), a.srv.Generation(); got != c.want || gen != c.gen {
			t.Errorf("%+v: version %v, generation %d; want %v, %d", c.opts, got, gen, c.want, c.gen)
		}
	}
	a := newAPI(t, localapi.Options{Today: true, Generation: 1})
	if err := a.srv.SetGeneration(2); err != nil || a.srv.Version() != localapi.VersionE2026 {
		t.Errorf("SetGeneration(2) in today's mode: %v, %v; want E2026", a.srv.Version(), err)
	}
	a.srv.SetToday(false)
	if a.srv.Version() != localapi.VersionE {
		t.Errorf("SetToday(false) at E2026: %v, want E", a.srv.Version())
	}
	for _, bad := range []localapi.Version{0, localapi.VersionF + 1} {
		if err := a.srv.SetVersion(bad); err == nil {
			t.Errorf("SetVersion(%v) succeeded", bad)
		}
		if srv, err := localapi.New(localapi.Options{Version: bad}); bad != 0 && err == nil {
			_ = srv.Close()
			t.Errorf("New with version %v succeeded", bad)
		}
	}
}

// TestVersions: what each version has, as the notes' table says: filters
// only in B; job only in B and C; migrate and activity from D on; a create
// stores a config until D; delivery_rate_24h until E2026; no route at F;
// deleted configs left out of lists at every version. Configs are made at
// B, and the server moved to the version under test.
func TestVersions(t *testing.T) {
	type has struct{ filters, job, migrate, stores, deliveryRate, api bool }
	for _, c := range []struct {
		v    localapi.Version
		want has
	}{
		{localapi.VersionB, has{filters: true, job: true, stores: true, deliveryRate: true, api: true}},
		{localapi.VersionC, has{job: true, stores: true, deliveryRate: true, api: true}},
		{localapi.VersionD, has{migrate: true, stores: true, deliveryRate: true, api: true}},
		{localapi.VersionE, has{migrate: true, deliveryRate: true, api: true}},
		{localapi.VersionE2026, has{migrate: true, api: true}},
		{localapi.VersionF, has{}},
	} {
		t.Run(c.v.String(), func(t *testing.T) {
			a := newAPI(t, localapi.Options{})
			rec := a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1, "enabled": true, "filters": map[string]any{"events": []any{}}})
			gone := a.create(1, tr, full, map[string]any{"plugin": 1, "order": 2})
			a.do(http.MethodPatch, path(1, tr, id(gone)), full, map[string]any{"deleted": true}).want(t, 200)
			if err := a.srv.SetVersion(c.v); err != nil {
				t.Fatal(err)
			}
			var got has
			r := a.do(http.MethodGet, path(1, tr, id(rec)), full, nil)
			if got.api = r.status != http.StatusNotFound; got.api {
				obj := r.want(t, 200).object(t)
				_, got.filters = obj["filters"]
				_, got.deliveryRate = obj["delivery_rate_24h"]
				page := a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200).object(t)
				if n := len(results(t, page)); n != 1 || page["count"] != float64(1) {
					t.Errorf("the list shows %d configs, count %v: want the one not deleted", n, page["count"])
				}
			}
			// Job, migrate and activity answer 404 where the version lacks
			// them, and something else (their own checks) where it has them.
			got.job = a.do(http.MethodPost, path(1, tr, id(rec), "job"), full, map[string]any{"job": map[string]any{}}).status != http.StatusNotFound
			migrate := a.do(http.MethodPost, path(1, tr, id(rec), "migrate"), full, nil).status != http.StatusNotFound
			activity := a.do(http.MethodGet, path(1, tr, id(rec), "activity"), full, nil).status != http.StatusNotFound
			if got.migrate = migrate; migrate != activity {
				t.Errorf("migrate exists: %t, activity: %t", migrate, activity)
			}
			if got.api {
				before := len(stored(t, a))
				a.do(http.MethodPost, path(1, tr), full, map[string]any{"plugin": 5, "order": 3})
				got.stores = len(stored(t, a)) > before
			}
			if got != c.want {
				t.Errorf("version %v has %+v, want %+v", c.v, got, c.want)
			}
		})
	}
}

// TestRearrangeKeys (issue 35): in B and C a key of rearrange is a plugin
// id, and the order goes to the project's enabled config of that plugin,
// the one with the highest id when it has several, in either collection;
// from D on a key is a config id. Config ids here are the plugin ids of
// other configs, as on a real instance.
func TestRearrangeKeys(t *testing.T) {
	for _, v := range []localapi.Version{localapi.VersionB, localapi.VersionC, localapi.VersionD, localapi.VersionE} {
		t.Run(v.String(), func(t *testing.T) {
			a := newAPI(t, localapi.Options{FirstConfigID: 3})
			// Config 3 is of plugin 1, 4 and 5 of plugin 3 (an import app),
			// 6 of plugin 4: config 3's id is plugin 3's.
			c3 := a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1, "enabled": true})
			c4 := a.create(1, ia, full, map[string]any{"plugin": 3, "order": 2, "enabled": true})
			c5 := a.create(1, ia, full, map[string]any{"plugin": 3, "order": 3, "enabled": true})
			c6 := a.create(1, ia, full, map[string]any{"plugin": 4, "order": 4, "enabled": false})
			if id(c3) != 3 {
				t.Fatalf("the first config is %d, want 3", id(c3))
			}
			if err := a.srv.SetVersion(v); err != nil {
				t.Fatal(err)
			}
			answer := a.do(http.MethodPatch, path(1, tr, "rearrange"), full, map[string]any{"orders": map[string]any{"3": 10, "4": 20}}).
				want(t, 200).array(t)
			if len(answer) != 3 {
				t.Errorf("the answer holds %d configs, want the 3 enabled ones", len(answer))
			}
			want := map[int64]int64{id(c3): 1, id(c4): 2, id(c5): 3, id(c6): 4}
			if v <= localapi.VersionC {
				want[id(c5)] = 10 // plugin 3's last enabled config; plugin 4's is disabled
			} else {
				want[id(c3)], want[id(c4)] = 10, 20
			}
			for cid, order := range want {
				if got := stored(t, a)[cid].Order; got != order {
					t.Errorf("config %d has order %d, want %d", cid, got, order)
				}
			}
		})
	}
}

// TestFirstConfigID: the first config gets FirstConfigID, and the ids go
// on from there, shared by both collections; a -db file whose sequence is
// past it keeps its own.
func TestFirstConfigID(t *testing.T) {
	db := filepath.Join(t.TempDir(), "local.db")
	a := newAPI(t, localapi.Options{DBPath: db, FirstConfigID: 7})
	if got := id(a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})); got != 7 {
		t.Errorf("first id %d, want 7", got)
	}
	if got := id(a.create(1, ia, full, map[string]any{"plugin": 3, "order": 1})); got != 8 {
		t.Errorf("second id %d, want 8", got)
	}
	if err := a.srv.Close(); err != nil {
		t.Fatal(err)
	}
	a = newAPI(t, localapi.Options{DBPath: db, FirstConfigID: 2})
	if got := id(a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})); got != 9 {
		t.Errorf("id after reopening with an earlier first id: %d, want 9", got)
	}
	if srv, err := localapi.New(localapi.Options{FirstConfigID: -1}); err == nil {
		_ = srv.Close()
		t.Error("New with a negative FirstConfigID succeeded")
	}
}

// stored is every config of project 1 as the store holds it, by id.
func stored(t *testing.T, a *api) map[int64]localapi.StoredRecord {
	t.Helper()
	recs, err := a.srv.StoredRecords(1)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
