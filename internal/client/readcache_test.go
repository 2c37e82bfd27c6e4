package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// fixture is a local pageReader holding n transformation configs in project 1, a
// client with pages of pageSize records, and a cache over that.
type fixture struct {
	srv   *localapi.Running
	api   *Client
	cache *ReadCache
	ids   []int64
}

const coll = Transformations

func newFixture(t *testing.T, n, pageSize int) *fixture {
	t.Helper()
	srv := localapitest.NewTestServer(t, localapi.Options{})
	api, err := New(Config{Host: srv.URL, APIKey: localapi.KeyWrite, PageSize: pageSize})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{srv: srv, api: api, cache: NewReadCache(api, api.PageSize())}
	for i := range n {
		f.ids = append(f.ids, f.create(t, fmt.Sprintf("config %d", i)))
	}
	srv.ResetCounters()
	return f
}

func (f *fixture) create(t *testing.T, name string) int64 {
	t.Helper()
	return f.createOf(t, name, 1)
}

// createOf creates a config of plugin (a transformation plugin).
func (f *fixture) createOf(t *testing.T, name string, plugin int64) int64 {
	t.Helper()
	rec, err := f.api.Create(t.Context(), "1", coll, RecordInput{
		Plugin: Some(plugin), Order: Some(int64(0)), Name: Some(name),
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

// requests returns the list and retrieve requests counted since the last
// call.
func (f *fixture) requests() (lists, gets int64) {
	c := f.srv.Counters()
	f.srv.ResetCounters()
	return c["list"], c["retrieve"]
}

// readAll reads ids with workers concurrent readers, as Terraform's
// refresh does, checks each record against the service, and returns the
// list and retrieve requests the reads made.
func (f *fixture) readAll(t *testing.T, ids []int64, workers int) (lists, gets int64) {
	t.Helper()
	ctx := t.Context()
	next := make(chan int64)
	got := make(map[int64]*Record, len(ids))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for id := range next {
				rec, err := f.cache.Read(ctx, "1", coll, id)
				if err != nil {
					t.Errorf("read %d: %v", id, err)
					continue
				}
				mu.Lock()
				got[id] = rec
				mu.Unlock()
			}
		})
	}
	for _, id := range ids {
		next <- id
	}
	close(next)
	wg.Wait()
	lists, gets = f.requests()
	t.Logf("%d reads: %d lists, %d GETs", len(ids), lists, gets)
	for _, id := range ids {
		want, err := f.api.Get(ctx, "1", coll, id)
		if err != nil {
			t.Fatal(err)
		}
		if rec := got[id]; rec == nil || rec.ID != id || *rec.Name != *want.Name || rec.UpdatedAt != want.UpdatedAt {
			t.Errorf("read %d: %+v, want %+v", id, rec, want)
		} else if string(rec.PluginInfo) != string(want.PluginInfo) {
			t.Errorf("read %d: plugin_info %s, want %s", id, rec.PluginInfo, want.PluginInfo)
		}
	}
	f.srv.ResetCounters()
	return lists, gets
}

func TestRead_oneRecordIsOneGET(t *testing.T) {
	f := newFixture(t, 45, 10)
	lists, gets := f.readAll(t, f.ids[7:8], 1)
	if lists != 0 || gets != 1 {
		t.Errorf("reading one record of five pages made %d lists and %d GETs, want one GET", lists, gets)
	}
}

// A few records of a large collection cost a GET each and one page, never
// the listing of the whole collection.
func TestRead_fewRecordsOfALargeCollection(t *testing.T) {
	f := newFixture(t, 300, 10) // 30 pages
	few := []int64{f.ids[3], f.ids[150], f.ids[299], f.ids[42], f.ids[200], f.ids[77]}
	lists, gets := f.readAll(t, few, 1)
	if lists > 1 || lists+gets > int64(len(few))+1 {
		t.Errorf("reading %d records of 30 pages made %d lists and %d GETs, want at most one list and a GET per record",
			len(few), lists, gets)
	}
}

// Reading a whole collection lists each page once and sends a GET or two
// before the demand justifies listing, sequentially or ten at a time.
func TestRead_wholeCollection(t *testing.T) {
	for _, workers := range []int{1, 10} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			f := newFixture(t, 95, 10) // 10 pages
			lists, gets := f.readAll(t, f.ids, workers)
			// The rent: the first read, and GETs until twice the misses
			// reach the nine pages left after the first.
			if lists != 10 || gets > 5 {
				t.Errorf("reading 95 records of 10 pages made %d lists and %d GETs, want 10 lists and at most 5 GETs", lists, gets)
			}
		})
	}
}

// Five pages, as each collection of the benchmark's N=1000 has: at most two
// GETs besides the pages.
func TestRead_fivePages(t *testing.T) {
	f := newFixture(t, 500, 100)
	lists, gets := f.readAll(t, f.ids, 10)
	if lists != 5 || gets > 2 {
		t.Errorf("reading 500 records of 5 pages made %d lists and %d GETs, want 5 lists and at most 2 GETs", lists, gets)
	}
}

// Records of two plugins served from pages carry their plugin's
// plugin_info, which pages leave out: one GET per plugin tells it.
func TestRead_pluginInfoOfEachPlugin(t *testing.T) {
	f := newFixture(t, 0, 10)
	for i := range 60 {
		f.ids = append(f.ids, f.createOf(t, fmt.Sprintf("config %d", i), int64(1+i%2)))
	}
	f.srv.ResetCounters()
	lists, gets := f.readAll(t, f.ids, 10) // compares each plugin_info with a GET's
	// The rent of 6 pages (at most 4 GETs) and a GET for the plugin the
	// first read, a GET, did not show.
	if lists != 6 || gets > 5 {
		t.Errorf("reading 60 records of 2 plugins in 6 pages made %d lists and %d GETs, want 6 lists and at most 5 GETs", lists, gets)
	}
}

// A record no page shows, created after the listing, is read by GET; a
// record that is gone reports the GET's 404; a second read of a record
// asks the service again.
func TestRead_fallsBackToGET(t *testing.T) {
	f := newFixture(t, 25, 10)
	f.readAll(t, f.ids, 1)
	ctx := t.Context()

	late := f.create(t, "late")
	f.requests()
	if rec, err := f.cache.Read(ctx, "1", coll, late); err != nil || rec.ID != late {
		t.Fatalf("read of a record created after the listing: %v, %v", rec, err)
	}
	if _, err := f.cache.Read(ctx, "1", coll, 999999); !IsNotFound(err) {
		t.Errorf("read of an unknown record: %v, want a 404", err)
	}
	if _, err := f.cache.Read(ctx, "1", coll, f.ids[1]); err != nil { // served from the first page before
		t.Fatal(err)
	}
	// The listing told the client the collection's pageReader is there: the 404
	// is a missing record without a look at the collection.
	if lists, gets := f.requests(); lists != 0 || gets != 3 {
		t.Errorf("made %d lists and %d GETs, want 3 GETs and no look at the collection after the 404", lists, gets)
	}
}

// Pages leave soft-deleted records out; a read of one is a GET, which
// serves it as it is, and the caller removes it from state.
func TestRead_deletedRecordsFromPages(t *testing.T) {
	f := newFixture(t, 30, 10)
	ctx := t.Context()
	for _, id := range f.ids[:2] {
		if _, err := f.api.Update(ctx, "1", coll, id, RecordInput{Deleted: Some(true)}); err != nil {
			t.Fatal(err)
		}
	}
	f.readAll(t, f.ids, 1)
	for _, id := range f.ids[:2] {
		f.cache.Invalidate(0) // unrelated invalidations change nothing
		rec, err := f.cache.Read(ctx, "1", coll, id)
		if err != nil || !rec.Deleted {
			t.Errorf("read of deleted record %d: %+v, %v; want deleted", id, rec, err)
		}
	}
}

// A record written by the provider is not served from a page fetched
// before the write.
func TestInvalidate(t *testing.T) {
	f := newFixture(t, 30, 10)
	ctx := t.Context()
	// Two reads start the listing: the first page holds ids[0:10].
	f.readAll(t, []int64{f.ids[20], f.ids[21]}, 1)
	if _, err := f.api.Update(ctx, "1", coll, f.ids[5], RecordInput{Name: Some("renamed")}); err != nil {
		t.Fatal(err)
	}
	f.cache.Invalidate(f.ids[5])
	rec, err := f.cache.Read(ctx, "1", coll, f.ids[5])
	if err != nil || *rec.Name != "renamed" {
		t.Errorf("read after a write: %+v, %v; want the written name", rec, err)
	}
}

// fakeAPI serves records from memory; List waits for release when it is
// set, so that a test can act while a page is under way. Get answers with
// the plugin_info of the record's plugin in pluginInfo, as the service
// does; List leaves it out.
type fakeAPI struct {
	mu         sync.Mutex
	records    []Record
	pluginInfo map[int64]string
	listErr    error
	count      int64 // the count pages say; the records' when 0
	release    chan struct{}
	started    chan struct{}
	lists      int
	gets       int
}

func (a *fakeAPI) List(ctx context.Context, _ string, _ Collection, limit, offset int) (*Page, error) {
	a.mu.Lock()
	a.lists++
	release, started, err := a.release, a.started, a.listErr
	page := &Page{Count: int64(len(a.records))}
	if a.count != 0 {
		page.Count = a.count
	}
	if offset < len(a.records) {
		page.Results = append(page.Results, a.records[offset:min(offset+limit, len(a.records))]...)
	}
	a.mu.Unlock()
	if started != nil {
		started <- struct{}{}
	}
	if release != nil {
		<-release
	}
	return page, err
}

func (a *fakeAPI) Get(_ context.Context, _ string, _ Collection, id int64) (*Record, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.gets++
	for _, r := range a.records {
		if r.ID == id {
			if info, ok := a.pluginInfo[r.Plugin]; ok {
				r.PluginInfo = json.RawMessage(info)
			}
			return &r, nil
		}
	}
	return nil, errors.New("not found")
}

func (a *fakeAPI) set(id int64, name string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := range a.records {
		if a.records[i].ID == id {
			a.records[i].Name = &name
		}
	}
}

func newFakeAPI(n int) *fakeAPI {
	a := &fakeAPI{}
	for i := range n {
		name := "old"
		a.records = append(a.records, Record{ID: int64(i + 1), Name: &name})
	}
	return a
}

// A write that lands while a page is under way keeps the page's (possibly
// older) copy of the record from serving reads.
func TestInvalidate_whilePageUnderWay(t *testing.T) {
	api := newFakeAPI(5)
	c := NewReadCache(api, 10)
	ctx := t.Context()
	if _, err := c.Read(ctx, "1", coll, 1); err != nil { // the direct read
		t.Fatal(err)
	}
	api.release, api.started = make(chan struct{}), make(chan struct{})
	done := make(chan *Record)
	go func() {
		rec, _ := c.Read(ctx, "1", coll, 2) // lists the first page
		done <- rec
	}()
	<-api.started // the page holds the old name of record 3
	api.set(3, "new")
	c.Invalidate(3)
	close(api.release)
	if rec := <-done; rec == nil || rec.ID != 2 {
		t.Fatalf("read of record 2: %+v", rec)
	}
	api.release, api.started = nil, nil
	rec, err := c.Read(ctx, "1", coll, 3)
	if err != nil || *rec.Name != "new" {
		t.Errorf("read of record 3 after its write: %+v, %v; want the new name", rec, err)
	}
	if api.lists != 1 || api.gets != 2 {
		t.Errorf("%d lists and %d GETs, want one list and two GETs", api.lists, api.gets)
	}
}

// A page that fails stops the listing: reads fall back to GETs.
func TestRead_listFailureFallsBackToGET(t *testing.T) {
	api := newFakeAPI(30)
	api.listErr = errors.New("boom")
	c := NewReadCache(api, 10)
	for id := int64(1); id <= 30; id++ {
		if rec, err := c.Read(t.Context(), "1", coll, id); err != nil || rec.ID != id {
			t.Fatalf("read %d: %+v, %v", id, rec, err)
		}
	}
	if api.lists != 1 || api.gets != 30 {
		t.Errorf("%d lists and %d GETs, want one failed list and a GET per record", api.lists, api.gets)
	}
}

// A count past a listing's budget (a service whose pages do not end) is
// not listed, nor counted out page by page: reads fall back to GETs.
func TestRead_countPastTheBudgetFallsBackToGET(t *testing.T) {
	api := newFakeAPI(30)
	api.count = 1 << 40
	c := NewReadCache(api, 10)
	for id := int64(1); id <= 30; id++ {
		if rec, err := c.Read(t.Context(), "1", coll, id); err != nil || rec.ID != id {
			t.Fatalf("read %d: %+v, %v", id, rec, err)
		}
	}
	if api.lists != 1 || api.gets != 21 {
		t.Errorf("%d lists and %d GETs, want the first read's GET, the first page, and a GET for each record it does not hold", api.lists, api.gets)
	}
}

// Reads of another project or collection have listings of their own.
func TestRead_collectionsAreSeparate(t *testing.T) {
	api := newFakeAPI(10)
	c := NewReadCache(api, 10)
	ctx := t.Context()
	for _, k := range []collKey{{"1", Transformations}, {"2", Transformations}, {"1", ImportApps}} {
		for _, id := range []int64{1, 2, 3} {
			if _, err := c.Read(ctx, k.project, k.coll, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if api.lists != 3 || api.gets != 3 {
		t.Errorf("%d lists and %d GETs, want a GET and a list per collection", api.lists, api.gets)
	}
}

// A record from a page gets the plugin_info a GET of the operation showed
// for its plugin; the first record of a plugin no GET has shown is read by
// GET. A plugin changed on the service since shows in the next operation.
func TestRead_pluginInfoOfTheOperation(t *testing.T) {
	api := newFakeAPI(10)
	for i := range api.records {
		api.records[i].Plugin = int64(1 + i%2) // odd ids plugin 1, even ids plugin 2
	}
	api.pluginInfo = map[int64]string{1: `{"name":"one"}`, 2: `{"name":"two"}`}
	c := NewReadCache(api, 10)
	ctx := t.Context()
	read := func(id int64, wantInfo string, wantLists, wantGets int) {
		t.Helper()
		rec, err := c.Read(ctx, "1", coll, id)
		if err != nil || rec.ID != id {
			t.Fatalf("read %d: %+v, %v", id, rec, err)
		}
		if string(rec.PluginInfo) != wantInfo {
			t.Errorf("read %d: plugin_info %s, want %s", id, rec.PluginInfo, wantInfo)
		}
		if api.lists != wantLists || api.gets != wantGets {
			t.Errorf("after reading %d: %d lists and %d GETs, want %d and %d", id, api.lists, api.gets, wantLists, wantGets)
		}
	}
	read(1, `{"name":"one"}`, 0, 1) // the direct GET shows plugin 1
	read(2, `{"name":"two"}`, 1, 2) // from the page, but plugin 2 is unknown: a GET
	read(3, `{"name":"one"}`, 1, 2) // from the page, plugin_info of the first GET
	read(4, `{"name":"two"}`, 1, 2)

	api.mu.Lock()
	api.pluginInfo[1] = `{"name":"one, renamed"}`
	api.mu.Unlock()
	read(5, `{"name":"one"}`, 1, 2) // the operation's view
}

// Records of a list get their plugin's plugin_info with one GET per
// plugin, shared with the reads of the operation; a record whose GET shows
// it gone since the page (unknown, or soft-deleted) is left out.
func TestWithPluginInfo(t *testing.T) {
	f := newFixture(t, 0, 10)
	ctx := t.Context()
	for i := range 30 {
		f.ids = append(f.ids, f.createOf(t, fmt.Sprintf("config %d", i), int64(1+i%2)))
	}
	listed, err := f.api.ListAll(ctx, "1", coll)
	if err != nil {
		t.Fatal(err)
	}
	f.requests()

	got, err := f.cache.WithPluginInfo(ctx, "1", coll, listed)
	if err != nil {
		t.Fatal(err)
	}
	if _, gets := f.requests(); gets != 2 {
		t.Errorf("%d GETs, want 2: one per plugin", gets)
	}
	if len(got) != len(listed) {
		t.Fatalf("%d records, want the %d listed", len(got), len(listed))
	}
	for i, rec := range got {
		want, err := f.api.Get(ctx, "1", coll, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rec.ID != listed[i].ID || string(rec.PluginInfo) != string(want.PluginInfo) || len(want.PluginInfo) < 10 {
			t.Errorf("record %d: id %d plugin_info %s, want id %d (the list's order) and %s", i, rec.ID, rec.PluginInfo, listed[i].ID, want.PluginInfo)
		}
	}
	f.requests()

	// The plugins are known now: another list of the operation asks for
	// no plugin_info again.
	if _, err := f.cache.WithPluginInfo(ctx, "1", coll, listed); err != nil {
		t.Fatal(err)
	}
	if _, gets := f.requests(); gets != 0 {
		t.Errorf("a second list of the operation made %d GETs, want none", gets)
	}

	// A record that the GET shows gone since the page is left out.
	if _, err := f.api.Update(ctx, "1", coll, listed[0].ID, RecordInput{Deleted: Some(true)}); err != nil {
		t.Fatal(err)
	}
	for name, rec := range map[string]Record{"soft-deleted": listed[0], "unknown": {ID: 999999, Plugin: 1}} {
		fresh := NewReadCache(f.api, f.api.PageSize())
		if got, err := fresh.WithPluginInfo(ctx, "1", coll, []Record{rec}); err != nil || len(got) != 0 {
			t.Errorf("a record %s since the page: %+v, %v; want it left out", name, got, err)
		}
	}
}
