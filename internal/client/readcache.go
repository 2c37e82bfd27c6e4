// The record reads of one Terraform operation (one configured provider),
// served from list pages when that pays: see DESIGN.md, "Refresh reads come
// from list pages, when that pays".

package client

import (
	"cmp"
	"context"
	"encoding/json"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// fetchParallelism is how many pages of one collection are fetched at once.
const fetchParallelism = 4

// pageReader is what the cache needs of the client: one page, or one record.
type pageReader interface {
	List(ctx context.Context, project string, coll Collection, limit, offset int) (*Page, error)
	Get(ctx context.Context, project string, coll Collection, id int64) (*Record, error)
}

// ReadCache batches the record reads of one operation. It is safe for
// concurrent use; use NewReadCache.
type ReadCache struct {
	api      pageReader
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
	coll    Collection
}

type pluginKey struct {
	project string
	plugin  int64
}

// pluginInfo is one plugin's plugin_info. ready is closed once it is known
// (ok) or its GET failed (then it is gone from ReadCache.plugins).
type pluginInfo struct {
	key   pluginKey
	ready chan struct{}
	info  json.RawMessage
	ok    bool
}

// collState is the listing of one collection, guarded by ReadCache.mu.
type collState struct {
	misses int   // reads the pages could not serve, the first GET included
	count  int64 // the largest count a page reported; -1 before any
	listed int   // pages 0 to listed-1 are fetched or under way
	// complete: the first page held every record (a service ignoring limit).
	complete bool
	// failed: a page failed or the count is past a listing's budget.
	failed  bool
	records map[int64]*Record // the pages' records not served yet
	// inflight is closed once the pages being fetched are filed.
	inflight chan struct{}
	// firstGET is closed (and nil) once the first read's GET has returned:
	// records from pages wait for the plugin_info it may show.
	firstGET chan struct{}
}

// pages is how many pages the collection takes, by the latest count.
func (s *collState) pages(pageSize int) int {
	if s.count <= 0 || s.complete {
		return 1
	}
	return int((s.count + int64(pageSize) - 1) / int64(pageSize))
}

// NewReadCache returns a cache reading through api with pages of pageSize records.
func NewReadCache(api pageReader, pageSize int) *ReadCache {
	return &ReadCache{
		api: api, pageSize: cmp.Or(max(pageSize, 0), DefaultPageSize),
		colls: map[collKey]*collState{}, invalidated: map[int64]uint64{}, plugins: map[pluginKey]*pluginInfo{},
	}
}

// Read returns record id of collection coll of project, from a list page
// or by GET. Errors are the GET's.
func (c *ReadCache) Read(ctx context.Context, project string, coll Collection, id int64) (*Record, error) {
	k := collKey{project, coll}
	rec, first := c.fromPages(ctx, k, id)
	if rec != nil {
		return c.withPluginInfo(ctx, k, rec)
	}
	return c.get(ctx, k, id, first, nil)
}

// WithPluginInfo returns recs, records a list of collection coll of project
// showed, each with its plugin's plugin_info as a page's record gets it
// (one GET per plugin and operation). A record gone since the list (404, or
// soft-deleted) is left out. Errors are the client's, from a GET.
func (c *ReadCache) WithPluginInfo(ctx context.Context, project string, coll Collection, recs []Record) ([]Record, error) {
	k := collKey{project, coll}
	out := make([]*Record, len(recs))
	errs := make([]error, len(recs))
	parallel(len(recs), func(i int) {
		out[i], errs[i] = c.withPluginInfo(ctx, k, &recs[i])
	})
	kept := make([]Record, 0, len(recs))
	for i, rec := range out {
		switch {
		case IsNotFound(errs[i]):
		case errs[i] != nil:
			return nil, errs[i]
		case !rec.Deleted:
			kept = append(kept, *rec)
		}
	}
	return kept, nil
}

// withPluginInfo returns a record from a page of collection k with its
// plugin's plugin_info, waiting for the first GET of the collection or the
// plugin's own GET; when neither is under way, it reads the record by GET.
func (c *ReadCache) withPluginInfo(ctx context.Context, k collKey, rec *Record) (*Record, error) {
	key := pluginKey{k.project, rec.Plugin}
	for {
		c.mu.Lock()
		e, wait := c.plugins[key], c.stateOf(k).firstGET // the first GET may show the plugin
		if e != nil {
			wait = e.ready
		} else if wait == nil {
			e = &pluginInfo{ready: make(chan struct{}), key: key}
			c.plugins[key] = e
			c.mu.Unlock()
			return c.get(ctx, k, rec.ID, false, e)
		}
		c.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e != nil && e.ok {
			out := *rec
			if len(e.info) > 0 && string(e.info) != "null" { // else the service sent none
				out.PluginInfo = e.info
			}
			return &out, nil
		}
	}
}

// get reads record id by GET; first: the collection's first read, which
// records from pages wait for. The answer settles e, the plugin_info the
// read is for, or else its plugin's when none is known; a failed GET drops
// e, so that the next read tries again.
func (c *ReadCache) get(ctx context.Context, k collKey, id int64, first bool, e *pluginInfo) (*Record, error) {
	rec, err := c.api.Get(ctx, k.project, k.coll, id)
	c.mu.Lock()
	defer c.mu.Unlock()
	if first {
		close(c.colls[k].firstGET)
		c.colls[k].firstGET = nil
	}
	if err == nil && e == nil {
		key := pluginKey{k.project, rec.Plugin}
		if c.plugins[key] == nil {
			e = &pluginInfo{ready: make(chan struct{}), key: key}
			c.plugins[key] = e
		}
	}
	if e == nil {
		return rec, err
	}
	if err != nil {
		delete(c.plugins, e.key)
	} else {
		e.info, e.ok = rec.PluginInfo, true
	}
	close(e.ready)
	return rec, err
}

// Invalidate makes sure no page fetched before now serves record id: call
// it for every record this provider changes.
func (c *ReadCache) Invalidate(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.invalidated[id] = c.gen
	for _, s := range c.colls {
		delete(s.records, id)
	}
}

// fromPages returns record id from the collection's pages, listing pages
// when the demand warrants it, or nil when the caller should GET it, and
// whether that GET is the collection's first read.
func (c *ReadCache) fromPages(ctx context.Context, k collKey, id int64) (*Record, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stateOf(k)
	counted := false // whether this read is among s.misses
	for {
		if rec, ok := s.records[id]; ok {
			delete(s.records, id) // one read per page record; another asks the service
			return rec, false
		}
		if done := s.inflight; done != nil {
			c.mu.Unlock()
			select {
			case <-done:
			case <-ctx.Done():
			}
			c.mu.Lock()
			if ctx.Err() != nil {
				return nil, false // the GET reports the cancellation
			}
			continue
		}
		unlisted := s.pages(c.pageSize) - s.listed
		switch {
		case s.failed || unlisted == 0:
			return nil, false
		case s.count < 0 && s.misses == 0:
			s.misses++
			s.firstGET = make(chan struct{})
			return nil, true
		case s.count < 0:
			c.list(ctx, k, s, 1)
			continue
		}
		if !counted {
			s.misses++
			counted = true
		}
		if 2*s.misses < unlisted {
			return nil, false // listing the rest would cost more than the GETs so far
		}
		c.list(ctx, k, s, unlisted)
	}
}

// stateOf returns the state of collection k. It runs under c.mu.
func (c *ReadCache) stateOf(k collKey) *collState {
	s := c.colls[k]
	if s == nil {
		s = &collState{count: -1, records: map[int64]*Record{}}
		c.colls[k] = s
	}
	return s
}

// list fetches the next n pages of collection k in the background; reads
// wait for them through s.inflight. It runs under c.mu.
func (c *ReadCache) list(ctx context.Context, k collKey, s *collState, n int) {
	first := s.listed
	s.listed += n
	s.inflight = make(chan struct{})
	tflog.Debug(ctx, "listing records to serve reads from pages", map[string]any{
		"collection": string(k.coll), "project": k.project, "pages": n, "first_offset": first * c.pageSize, "misses": s.misses,
	})
	// The pages serve every waiting read: one read's cancellation must not
	// fail them. The client's timeouts and retries bound the fetch.
	go c.fetch(context.WithoutCancel(ctx), k, s, c.gen, first, n)
}

// fetch gets pages first to first+n-1, at most fetchParallelism at a time,
// then files their records and wakes the reads waiting for them. gen is
// ReadCache.gen when the fetch began: a record invalidated since is left out.
func (c *ReadCache) fetch(ctx context.Context, k collKey, s *collState, gen uint64, first, n int) {
	pages := make([]*Page, n)
	errs := make([]error, n)
	parallel(n, func(i int) {
		pages[i], errs[i] = c.api.List(ctx, k.project, k.coll, c.pageSize, (first+i)*c.pageSize)
	})

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
		if s.pages(c.pageSize) > MaxListPages {
			tflog.Warn(ctx, "the service counts more records than a listing reads; reading records one by one", map[string]any{
				"collection": string(k.coll), "project": k.project, "count": page.Count,
			})
			s.failed = true
		}
		for j := range page.Results {
			rec := &page.Results[j]
			if c.invalidated[rec.ID] <= gen { // else written while the page was under way: it may be stale
				s.records[rec.ID] = rec
			}
		}
	}
	close(s.inflight)
	s.inflight = nil
}

// parallel runs fn(0) to fn(n-1), at most fetchParallelism at a time.
func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, fetchParallelism)
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			fn(i)
		})
	}
	wg.Wait()
}
