// Package readcache serves the record reads of one Terraform operation (one
// configured provider) from list pages when that pays. Terraform refreshes
// each record with a call of its own and never says how many follow, so
// each collection of each project decides from the demand so far:
//
//  1. The first read is a GET.
//  2. The second lists the first page, whose count tells how many pages the
//     collection takes; reads arriving meanwhile wait for it.
//  3. Then a read the pages do not hold is a miss, read by GET, until twice
//     the misses reach the pages not listed: then the rest are listed at
//     once. A few records of a large collection cost a GET each, a whole
//     collection its pages and a GET or two.
//  4. A record no page shows (new, soft-deleted, moved, gone) is read by
//     GET, as is every record once a page failed or the count is past
//     client.MaxListPages.
//
// A page's record serves one read. A record the provider writes is
// invalidated: no page fetched before the write serves it. Pages carry no
// plugin_info: a record from a page gets its plugin's from a GET of this
// operation, or is read by GET when none showed it yet (its plugin's other
// records wait for that GET).
package readcache

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// fetchParallelism is how many pages of one collection are fetched at once.
const fetchParallelism = 4

// API is what the cache needs of the client: one page, or one record.
type API interface {
	List(ctx context.Context, project string, coll client.Collection, limit, offset int) (*client.Page, error)
	Get(ctx context.Context, project string, coll client.Collection, id int64) (*client.Record, error)
}

// Cache batches the record reads of one operation. It is safe for
// concurrent use; use New.
type Cache struct {
	api      API
	pageSize int

	mu    sync.Mutex
	colls map[collKey]*collState
	// gen counts invalidations; invalidated holds each record's latest.
	gen         uint64
	invalidated map[int64]uint64
	plugins     map[pluginKey]*pluginInfo
}

type collKey struct {
	project string
	coll    client.Collection
}

type pluginKey struct {
	project string
	plugin  int64
}

// pluginInfo is one plugin's plugin_info. ready is closed once it is known
// (ok) or its GET failed (then it is gone from Cache.plugins).
type pluginInfo struct {
	ready chan struct{}
	info  json.RawMessage
	ok    bool
}

// collState is the listing of one collection, guarded by Cache.mu.
type collState struct {
	misses int   // reads the pages could not serve, the first GET included
	count  int64 // the largest count a page reported; -1 before any
	listed int   // pages 0 to listed-1 are fetched or under way
	// complete: the first page held every record (a service ignoring limit).
	complete bool
	// failed: a page failed or the count is past a listing's budget.
	failed   bool
	records  map[int64]*client.Record // the pages' records not served yet
	inflight *batch
	// firstGET is closed when the first read's GET has returned: records
	// from pages wait for the plugin_info it may show.
	firstGET chan struct{}
}

// pages is how many pages the collection takes, by the latest count.
func (s *collState) pages(pageSize int) int {
	if s.count <= 0 || s.complete {
		return 1
	}
	return int((s.count + int64(pageSize) - 1) / int64(pageSize))
}

// batch is pages being fetched; gen is Cache.gen when it started, so that a
// record invalidated since is not taken from it.
type batch struct {
	done chan struct{}
	gen  uint64
}

// New returns a cache reading through api with pages of pageSize records.
func New(api API, pageSize int) *Cache {
	if pageSize <= 0 {
		pageSize = client.DefaultPageSize
	}
	return &Cache{
		api: api, pageSize: pageSize,
		colls: map[collKey]*collState{}, invalidated: map[int64]uint64{}, plugins: map[pluginKey]*pluginInfo{},
	}
}

// Read returns record id of collection coll of project, from a list page
// or by GET (see the package documentation). Errors are the GET's.
func (c *Cache) Read(ctx context.Context, project string, coll client.Collection, id int64) (*client.Record, error) {
	k := collKey{project, coll}
	rec, firstGET := c.fromPages(ctx, k, id)
	if rec != nil {
		return c.withPluginInfo(ctx, k, rec)
	}
	rec, err := c.api.Get(ctx, project, coll, id)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil && c.plugins[pluginKey{project, rec.Plugin}] == nil {
		e := &pluginInfo{ready: make(chan struct{})}
		c.plugins[pluginKey{project, rec.Plugin}] = e
		settle(e, rec)
	}
	if firstGET != nil {
		close(firstGET)
	}
	return rec, err
}

// withPluginInfo returns a record from a page of collection k with its
// plugin's plugin_info, waiting for the first GET of the collection or the
// plugin's own GET; when neither is under way, it reads the record by GET.
func (c *Cache) withPluginInfo(ctx context.Context, k collKey, rec *client.Record) (*client.Record, error) {
	key := pluginKey{k.project, rec.Plugin}
	for {
		c.mu.Lock()
		wait := c.stateOf(k).firstGET
		e := c.plugins[key]
		switch {
		case e != nil:
			wait = e.ready
		case wait != nil && !isClosed(wait):
			// The first GET may show the plugin.
		default:
			e = &pluginInfo{ready: make(chan struct{})}
			c.plugins[key] = e
			c.mu.Unlock()
			return c.fetchPluginInfo(ctx, k, key, e, rec.ID)
		}
		c.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e != nil && e.ok {
			out := *rec
			if e.info != nil {
				out.PluginInfo = e.info
			}
			return &out, nil
		}
	}
}

// fetchPluginInfo reads record id by GET for the plugin_info of e, which it
// settles, or drops when the GET fails so that the next read tries again.
func (c *Cache) fetchPluginInfo(ctx context.Context, k collKey, key pluginKey, e *pluginInfo, id int64) (*client.Record, error) {
	rec, err := c.api.Get(ctx, k.project, k.coll, id)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		delete(c.plugins, key)
		close(e.ready)
		return nil, err
	}
	settle(e, rec)
	return rec, nil
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// settle records rec's plugin_info in e (nil when the service sent none)
// and wakes the reads waiting for it. It runs under Cache.mu.
func settle(e *pluginInfo, rec *client.Record) {
	if len(rec.PluginInfo) > 0 && string(rec.PluginInfo) != "null" {
		e.info = rec.PluginInfo
	}
	e.ok = true
	close(e.ready)
}

// Invalidate makes sure no page fetched before now serves record id: call
// it for every record this provider changes.
func (c *Cache) Invalidate(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.invalidated[id] = c.gen
	for _, s := range c.colls {
		delete(s.records, id)
	}
}

// fromPages returns record id from the collection's pages, listing pages
// when the demand warrants it, or nil when the caller should GET it; for
// the collection's first read, also a channel to close after that GET.
func (c *Cache) fromPages(ctx context.Context, k collKey, id int64) (*client.Record, chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stateOf(k)
	counted := false // whether this read is among s.misses
	for {
		if rec, ok := s.records[id]; ok {
			delete(s.records, id) // one read per page record; another asks the service
			return rec, nil
		}
		if b := s.inflight; b != nil {
			c.mu.Unlock()
			select {
			case <-b.done:
			case <-ctx.Done():
			}
			c.mu.Lock()
			if ctx.Err() != nil {
				return nil, nil // the GET reports the cancellation
			}
			continue
		}
		unlisted := s.pages(c.pageSize) - s.listed
		switch {
		case s.failed || unlisted == 0:
			return nil, nil
		case s.count < 0 && s.misses == 0:
			s.misses++
			s.firstGET = make(chan struct{})
			return nil, s.firstGET
		case s.count < 0:
			c.list(ctx, k, s, 1)
			continue
		}
		if !counted {
			s.misses++
			counted = true
		}
		if 2*s.misses < unlisted {
			return nil, nil // listing the rest would cost more than the GETs so far
		}
		c.list(ctx, k, s, unlisted)
	}
}

// stateOf returns the state of collection k. It runs under c.mu.
func (c *Cache) stateOf(k collKey) *collState {
	s := c.colls[k]
	if s == nil {
		s = &collState{count: -1, records: map[int64]*client.Record{}}
		c.colls[k] = s
	}
	return s
}

// list fetches the next n pages of collection k in the background; reads
// wait for them through s.inflight. It runs under c.mu.
func (c *Cache) list(ctx context.Context, k collKey, s *collState, n int) {
	b := &batch{done: make(chan struct{}), gen: c.gen}
	first := s.listed
	s.listed += n
	s.inflight = b
	tflog.Debug(ctx, "listing records to serve reads from pages", map[string]any{
		"collection": string(k.coll), "project": k.project, "pages": n, "first_offset": first * c.pageSize, "misses": s.misses,
	})
	// The pages serve every waiting read: one read's cancellation must not
	// fail them. The client's timeouts and retries bound the fetch.
	go c.fetch(context.WithoutCancel(ctx), k, s, b, first, n)
}

// fetch gets pages first to first+n-1, at most fetchParallelism at a time,
// then files their records and wakes the reads waiting for them.
func (c *Cache) fetch(ctx context.Context, k collKey, s *collState, b *batch, first, n int) {
	pages := make([]*client.Page, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, fetchParallelism)
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			pages[i], errs[i] = c.api.List(ctx, k.project, k.coll, c.pageSize, (first+i)*c.pageSize)
		})
	}
	wg.Wait()

	c.mu.Lock()
	defer c.mu.Unlock()
	for i, page := range pages {
		if errs[i] != nil {
			tflog.Warn(ctx, "listing failed; reading records one by one", map[string]any{
				"collection": string(k.coll), "project": k.project, "error": errs[i].Error(),
			})
			s.failed = true
			continue
		}
		s.count = max(s.count, page.Count)
		if first+i == 0 && int64(len(page.Results)) >= page.Count {
			s.complete = true
		}
		if s.pages(c.pageSize) > client.MaxListPages {
			tflog.Warn(ctx, "the service counts more records than a listing reads; reading records one by one", map[string]any{
				"collection": string(k.coll), "project": k.project, "count": page.Count,
			})
			s.failed = true
		}
		for j := range page.Results {
			rec := &page.Results[j]
			if c.invalidated[rec.ID] <= b.gen { // else written while the page was under way: it may be stale
				s.records[rec.ID] = rec
			}
		}
	}
	s.inflight = nil
	close(b.done)
}
