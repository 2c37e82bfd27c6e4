package localapi_test

import (
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestConcurrentCreatesAndPatches: 16 goroutines create and patch at once.
// IDs are unique, no update is lost, counts add up. Four of the goroutines
// also each own one field of a shared record and write 1..n to it in turn:
// a lost update (a stale read-modify-write) would leave an older value.
func TestConcurrentCreatesAndPatches(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	const workers, perWorker = 16, 20
	shared := id(a.create(1, tr, full, map[string]any{"plugin": 1, "order": 0}))
	sharedField := []string{"order", "name", "description", "enabled"}

	var mu sync.Mutex
	ids := map[int64]bool{}
	var wg sync.WaitGroup
	errs := make(chan string, 4*workers*perWorker)
	for w := range workers {
		wg.Go(func() {
			coll, plugin := tr, int64(1)
			if w%2 == 1 {
				coll, plugin = ia, 3
			}
			// Failures are reported through errs: t.Fatal may not be
			// called from these goroutines.
			for i := 1; i <= perWorker; i++ {
				r := a.do(http.MethodPost, path(1, coll), full, map[string]any{"plugin": plugin, "order": i, "name": fmt.Sprintf("w%d-%d", w, i)})
				if r.status != 201 {
					errs <- fmt.Sprintf("create: %d %s", r.status, r.body)
					return
				}
				rid := id(r.object(t))
				mu.Lock()
				if ids[rid] {
					errs <- fmt.Sprintf("id %d given twice", rid)
				}
				ids[rid] = true
				mu.Unlock()
				patches := []*response{a.do(http.MethodPatch, path(1, coll, rid), full, map[string]any{"order": 1000 + i, "enabled": true})}
				if w < len(sharedField) {
					var v any = i
					switch sharedField[w] {
					case "name", "description":
						v = fmt.Sprint(i)
					case "enabled":
						v = i%2 == 0
					}
					patches = append(patches, a.do(http.MethodPatch, path(1, tr, shared), full, map[string]any{sharedField[w]: v}))
				}
				for _, p := range patches {
					if p.status != 200 {
						errs <- fmt.Sprintf("patch: %d %s", p.status, p.body)
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if len(ids) != workers*perWorker {
		t.Fatalf("%d distinct ids, want %d", len(ids), workers*perWorker)
	}
	got := a.do(http.MethodGet, path(1, tr, shared), full, nil).want(t, 200).object(t)
	if num(got, "order") != perWorker || got["name"] != fmt.Sprint(perWorker) || got["description"] != fmt.Sprint(perWorker) || got["enabled"] != true {
		t.Errorf("shared record lost an update: %v", got)
	}
	total := 0
	for _, coll := range []string{tr, ia} {
		page := a.do(http.MethodGet, path(1, coll)+"?limit=10000", full, nil).want(t, 200).object(t)
		for _, rec := range results(t, page) {
			if id(rec) == shared {
				continue
			}
			total++
			if num(rec, "order") < 1000 || rec["enabled"] != true {
				t.Errorf("lost update on %d: order %v enabled %v", id(rec), rec["order"], rec["enabled"])
			}
		}
	}
	if total != workers*perWorker {
		t.Errorf("lists hold %d records, want %d", total, workers*perWorker)
	}
	c := a.srv.Counters()
	if c["create"] != workers*perWorker+1 || c["update"] != int64((workers+len(sharedField))*perWorker) {
		t.Errorf("counters %v", c)
	}
}

// TestPersistence: records in a -db file are all there after a restart, and
// the ID sequence continues.
func TestPersistence(t *testing.T) {
	db := filepath.Join(t.TempDir(), "local.db")
	first, err := localapi.Start(localapi.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	a := &api{t: t, srv: first.Server, url: first.URL}
	want := map[int64]map[string]any{}
	for i := range 30 {
		coll, plugin := tr, int64(1+i%2)
		if i%3 == 0 {
			coll, plugin = ia, 3
		}
		rec := a.create(1+i%2, coll, full, map[string]any{"plugin": plugin, "order": i, "name": fmt.Sprint("n", i),
			"filters": map[string]any{"events": []any{map[string]any{"type": "events"}}}})
		want[id(rec)] = rec
	}
	last := a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "1", "order": "1", "config": `{"api_key":"k","locale":"en"}`}).want(t, 201).object(t)
	a.do(http.MethodPatch, path(1, tr, id(last)), full, map[string]any{"deleted": true}).want(t, 200)
	want[id(last)] = a.do(http.MethodGet, path(1, tr, id(last)), full, nil).want(t, 200).object(t)
	a.do(http.MethodPost, path(num(want[2], "team_id"), tr, 2, "job"), full, jobBodies[tr]).want(t, 200) // record 2: plugin 2
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	second, err := localapi.Start(localapi.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	b := &api{t: t, srv: second.Server, url: second.URL}
	for rid, rec := range want {
		coll := tr
		if num(rec, "plugin") == 3 {
			coll = ia
		}
		got := b.do(http.MethodGet, path(num(rec, "team_id"), coll, rid), full, nil).want(t, 200).object(t)
		if fmt.Sprint(got) != fmt.Sprint(rec) {
			t.Errorf("record %d after restart:\n%v\nwant\n%v", rid, got, rec)
		}
	}
	if n := len(second.Jobs()); n != 1 {
		t.Errorf("%d job runs after restart, want 1", n)
	}
	next := b.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
	if id(next) != id(last)+1 {
		t.Errorf("id after restart %d, want %d", id(next), id(last)+1)
	}
}
