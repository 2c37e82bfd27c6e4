package localapi_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

func TestGenerationOptionAndSwitch(t *testing.T) {
	for _, c := range []struct {
		option, want int
	}{{0, 1}, {1, 1}, {2, 2}, {3, 3}} {
		a := newAPI(t, localapi.Options{Generation: c.option})
		if got := a.srv.Generation(); got != c.want {
			t.Errorf("Options{Generation: %d}: generation %d, want %d", c.option, got, c.want)
		}
	}
	for _, bad := range []int{-1, 4} {
		if srv, err := localapi.New(localapi.Options{Generation: bad}); err == nil {
			_ = srv.Close()
			t.Errorf("New with generation %d succeeded", bad)
		}
	}
	a := newAPIAt(t, 2)
	for _, bad := range []int{0, 4} {
		if err := a.srv.SetGeneration(bad); err == nil {
			t.Errorf("SetGeneration(%d) succeeded", bad)
		}
	}
	if got := a.srv.Generation(); got != 2 {
		t.Errorf("a refused switch changed the generation to %d", got)
	}
}

// TestGeneration3 answers 404 on every route of both collections (the
// auth matrix walks them all) and keeps the data for a switch back.
func TestGeneration3(t *testing.T) {
	a := newAPI(t, localapi.Options{DebugRoutes: true})
	rec := a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
	if err := a.srv.SetGeneration(3); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ method, path string }{
		{"GET", path(1, tr)}, {"POST", path(1, ia)}, {"GET", path(1, tr, id(rec))}, {"PATCH", path(1, tr, "rearrange")},
		{"DELETE", path(1, tr, id(rec))}, {"GET", path(1, tr, id(rec), "frontend")}, {"POST", path(1, tr, id(rec), "migrate")},
	} {
		a.do(r.method, r.path, "", map[string]any{"plugin": 3, "order": 1}).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	}
	// Debug routes are not the service's: they still work.
	a.do("GET", "/_localapi/counters", "", nil).want(t, 200)
	if err := a.srv.SetGeneration(1); err != nil {
		t.Fatal(err)
	}
	if got := a.do("GET", path(1, tr, id(rec)), full, nil).want(t, 200).object(t); got["enabled"] != false || got["deleted"] != false {
		t.Errorf("record after generation 3: %v", got)
	}
}

// TestGenerationSwitchUnderLoad switches the generation while requests are
// served: every answer is one a generation gives (200/201, or 404 at
// generation 3), never a failure. Run it with -race too.
func TestGenerationSwitchUnderLoad(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
	stop, switched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(switched)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := a.srv.SetGeneration(1 + i%3); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(100 * time.Microsecond)
		}
	}()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				r := a.do("GET", path(1, tr, id(rec)), full, nil)
				switch r.status {
				case 200:
					if got := r.object(t); id(got) != id(rec) {
						t.Errorf("retrieve %v", got)
					}
				case 404: // generation 3
				default:
					t.Errorf("retrieve %d %s", r.status, r.body)
				}
			}
		})
	}
	for range 4 {
		wg.Go(func() {
			for range 50 {
				// Disabled: 20 enabled transformations are the limit.
				if r := a.do("POST", path(1, tr), full, map[string]any{"plugin": 1, "order": 1, "enabled": false}); r.status != 201 && r.status != 404 {
					t.Errorf("create %d %s", r.status, r.body)
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	<-switched
}

// TestGeneration2OnAFileOfGeneration1: a database file filled at
// generation 1 opens at generation 2, and what generation 2 adds (hog
// functions, the change log) is kept across restarts too.
func TestGeneration2OnAFileOfGeneration1(t *testing.T) {
	db := filepath.Join(t.TempDir(), "local.db")
	start := func(gen int) (*localapi.Running, *api) {
		srv, err := localapi.Start(localapi.Options{DBPath: db, Generation: gen, Plugins: withMigrator()})
		if err != nil {
			t.Fatal(err)
		}
		return srv, &api{t: t, srv: srv.Server, url: srv.URL}
	}
	first, a := start(1)
	rec := a.form("POST", path(1, tr), full, map[string]string{"plugin": fmt.Sprint(migrators[tr]), "order": "1", "enabled": "true",
		"name": "kept", "config": `{"sendgridApiKey": "k"}`}).want(t, 201).object(t)
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	second, b := start(2)
	got := b.do("GET", path(1, tr, id(rec)), full, nil).want(t, 200).object(t)
	if _, has := got["filters"]; has || got["name"] != "kept" {
		t.Errorf("generation 1 record at generation 2: %v", got)
	}
	b.do("POST", path(1, tr, id(rec), "migrate"), full, nil).want(t, 200)
	b.create(1, tr, full, map[string]any{"plugin": 5, "order": 1})
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}

	third, c := start(2)
	defer third.Close()
	hfs := c.srv.HogFunctions()
	if len(hfs) != 2 || hfs[0].SourceConfigID == nil || *hfs[0].SourceConfigID != id(rec) || hfs[1].SourceConfigID != nil {
		t.Errorf("hog functions after restart %+v", hfs)
	}
	log, err := c.srv.Activity(1, id(rec))
	if err != nil || len(log) != 2 || log[0].Activity != "migrated" || log[1].Activity != "created" {
		t.Errorf("activity after restart %+v, %v", log, err)
	}
	// The ID sequence was not used by the generation 2 create.
	if err := c.srv.SetGeneration(1); err != nil {
		t.Fatal(err)
	}
	if next := c.create(1, tr, full, map[string]any{"plugin": 1, "order": 1}); id(next) != id(rec)+1 {
		t.Errorf("next id %d, want %d", id(next), id(rec)+1)
	}
	if n := len(listIDs(t, c, tr)); n != 2 {
		t.Errorf("%d configs, want 2", n)
	}
}
