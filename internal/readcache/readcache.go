// Package readcache serves the record reads of one Terraform operation from
// list pages, so that refreshing many records of a collection costs a few
// list requests instead of one GET per record, while an operation that
// reads only a few records of a large collection never lists all of it.
//
// Terraform starts a provider process per operation (plan, apply, ...) and
// refreshes each managed record with its own ReadResource call, ten at a
// time. The provider cannot know how many reads will follow, so each
// collection of each project decides from the demand seen so far, like
// renting skis before buying them:
//
//  1. The first read is a plain GET: an operation that reads one record
//     pays one request.
//  2. The next read lists the first page instead. Its count tells how many
//     pages the whole collection takes; reads arriving meanwhile wait for
//     the page rather than send GETs of their own.
//  3. After that, a read the pages fetched so far do not hold is a miss.
//     Once twice the misses (GETs paid, or about to be paid) reach the
//     number of pages still unlisted, every remaining page is fetched at
//     once (a few in parallel) and the misses wait for them. Until then a
//     miss is a GET. Reading k records of a collection of P pages so costs
//     at most k+1 requests, and never more than about 1.5·P+2 however many
//     records are read: a handful of records in a huge project costs a
//     handful of GETs, and refreshing a whole collection of a few pages
//     costs its pages and a GET or two.
//  4. A record the pages do not show (created after the listing, moved
//     between pages while they were fetched, soft-deleted, which lists
//     leave out, or gone) is read by GET, which also tells a deleted record
//     from a moved one. A page that fails, or a count past what one
//     listing reads (client.MaxListPages), stops the listing of that
//     collection: its reads fall back to GETs.
//
// Pages are a snapshot of one operation. A page's record serves one read
// and is then dropped, so a second read of the same record asks the
// service; and a collection's listing is forgotten maxAge after its last
// page, should one provider process live longer than an operation. A
// record this provider writes is invalidated: no page fetched before the
// write (or while it was under way) serves it. New records need nothing:
// no page fetched before they existed can show them.
//
// List pages carry plugin_info as null (the live service leaves it out of
// lists), while every record of a plugin has the same plugin_info, which
// changes when the plugin does (its name, settings schema, jobs, version).
// So a record served from a page gets the plugin_info of its plugin as a
// GET of this operation showed it; when no GET has shown that plugin yet,
// the record is read by GET instead and the plugin's other records wait for
// it. A refresh so costs at most one GET more per plugin, and never keeps a
// plugin_info older than the operation. The records a list data source or
// list resource shows get theirs the same way (WithPluginInfo), so that
// they can leave the plugin's secret settings out.
package readcache

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

const (
	// directReads is how many reads of a collection are plain GETs before
	// the first page is listed.
	directReads = 1
	// maxAge bounds how long a collection's pages serve reads after the
	// last one arrived: far longer than one operation's refresh, far
	// shorter than a process that outlives operations.
	maxAge = 5 * time.Minute
	// fetchParallelism is how many pages of one collection are fetched at
	// once. The client's rate limiter still spaces them.
	fetchParallelism = 4
)

// API is what the cache needs of the client: one page, or one record.
type API interface {
	List(ctx context.Context, project string, coll client.Collection, limit, offset int) (*client.Page, error)
	Get(ctx context.Context, project string, coll client.Collection, id int64) (*client.Record, error)
}

// Cache batches the record reads of one provider process. It is safe for
// concurrent use; the zero value is not usable, use New.
type Cache struct {
	api      API
	pageSize int
	now      func() time.Time

	mu    sync.Mutex
	colls map[collKey]*collState
	// gen counts invalidations; invalidated holds, per record id, the gen
	// of its latest one.
	gen         uint64
	invalidated map[int64]uint64
	// plugins holds the plugin_info of each plugin of each project, as a
	// GET of this operation showed it.
	plugins map[pluginKey]*pluginInfo
}

// pluginKey names one plugin as the configs of one project show it.
type pluginKey struct {
	project string
	plugin  int64
}

// pluginInfo is the plugin_info of one plugin, guarded by Cache.mu.
type pluginInfo struct {
	// ready is closed once info is known or its GET has failed (then the
	// entry is gone from Cache.plugins, and a waiting read tries again).
	ready chan struct{}
	info  json.RawMessage
	ok    bool
	since time.Time
}

// New returns a cache reading through api with pages of pageSize records.
func New(api API, pageSize int) *Cache {
	if pageSize <= 0 {
		pageSize = client.DefaultPageSize
	}
	return &Cache{
		api:         api,
		pageSize:    pageSize,
		now:         time.Now,
		colls:       map[collKey]*collState{},
		invalidated: map[int64]uint64{},
		plugins:     map[pluginKey]*pluginInfo{},
	}
}

// collKey names one collection of one project.
type collKey struct {
	project string
	coll    client.Collection
}

// collState is the listing of one collection, guarded by Cache.mu.
type collState struct {
	// since is when the state began, or its last batch of pages arrived.
	since time.Time
	// direct counts the reads sent as GETs before any page was listed.
	direct int
	// misses counts the reads the pages could not serve: the rent paid.
	misses int
	// count is the largest record count a page reported; -1 before any.
	count int64
	// complete is set when a page held every record (a service that
	// ignores limit).
	complete bool
	// fetched holds the indexes of pages fetched or being fetched.
	fetched map[int]bool
	// records are the pages' records not served yet.
	records map[int64]*client.Record
	// inflight is the batch of pages being fetched, if any.
	inflight *batch
	// failed is set once a page could not be fetched: no more listing.
	failed bool
	// directDone is closed when the latest direct read's GET has returned:
	// records from pages wait for the plugin_info it may show.
	directDone chan struct{}
}

func (s *collState) reset(now time.Time) {
	*s = collState{since: now, count: -1, fetched: map[int]bool{}, records: map[int64]*client.Record{}}
}

// pages is how many pages the collection takes, by the latest count.
func (s *collState) pages(pageSize int) int {
	if s.count <= 0 || s.complete {
		return 1
	}
	return int((s.count + int64(pageSize) - 1) / int64(pageSize))
}

// unfetched returns the indexes of the pages not fetched yet.
func (s *collState) unfetched(pageSize int) []int {
	var out []int
	for i := range s.pages(pageSize) {
		if !s.fetched[i] {
			out = append(out, i)
		}
	}
	return out
}

// batch is a set of pages being fetched together.
type batch struct {
	done  chan struct{}
	pages []int
	// gen is the cache's invalidation count when the batch started: a
	// record invalidated later is not taken from it.
	gen uint64
	// waiting holds the ids of reads waiting for the batch that have not
	// been counted as misses yet.
	waiting []int64
}

// Read returns record id of collection coll of project: from a list page
// when the demand seen in this collection makes listing worthwhile, else by
// GET (see the package documentation). A record from a page carries the
// plugin_info a GET of this operation showed for its plugin. Errors are the
// client's, from the GET.
func (c *Cache) Read(ctx context.Context, project string, coll client.Collection, id int64) (*client.Record, error) {
	k := collKey{project, coll}
	rec, directDone := c.fromPages(ctx, k, id)
	if rec != nil {
		return c.withPluginInfo(ctx, k, rec)
	}
	got, err := c.get(ctx, project, coll, id)
	if directDone != nil {
		c.mu.Lock()
		close(directDone)
		c.mu.Unlock()
	}
	return got, err
}

// get reads record id by GET and keeps its plugin_info for the records of
// its plugin that pages serve.
func (c *Cache) get(ctx context.Context, project string, coll client.Collection, id int64) (*client.Record, error) {
	rec, err := c.api.Get(ctx, project, coll, id)
	if err == nil {
		c.mu.Lock()
		key := pluginKey{project, rec.Plugin}
		if e := c.plugins[key]; e == nil || c.expired(e) {
			e = &pluginInfo{ready: make(chan struct{})}
			c.plugins[key] = e
			c.settle(e, rec)
		}
		c.mu.Unlock()
	}
	return rec, err
}

// withPluginInfo returns a record from a page of collection k with the
// plugin_info of its plugin. When no GET of this operation has shown the
// plugin yet, the record waits for the collection's direct read, which may
// show it, and is otherwise read by GET (pages cannot tell plugin_info); the
// plugin's other records wait for that GET rather than send their own.
func (c *Cache) withPluginInfo(ctx context.Context, k collKey, rec *client.Record) (*client.Record, error) {
	key := pluginKey{k.project, rec.Plugin}
	for {
		c.mu.Lock()
		wait := c.stateOf(k).directDone
		e := c.plugins[key]
		switch {
		case e != nil && !c.expired(e):
			wait = e.ready
		case wait != nil && !isClosed(wait):
			// The direct read may show the plugin.
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
		// The direct read has returned, or the plugin's GET failed: look again.
	}
}

// fetchPluginInfo reads record id by GET for the plugin_info of entry e,
// which it settles, or drops when the GET fails so that the next read of
// the plugin tries again.
func (c *Cache) fetchPluginInfo(ctx context.Context, k collKey, key pluginKey, e *pluginInfo, id int64) (*client.Record, error) {
	rec, err := c.api.Get(ctx, k.project, k.coll, id)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		delete(c.plugins, key)
		close(e.ready)
		return nil, err
	}
	c.settle(e, rec)
	return rec, nil
}

// isClosed reports whether ch is closed, without waiting.
func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// settle records rec's plugin_info in e (nil when the service sent none)
// and wakes the reads waiting for it. It runs under c.mu.
func (c *Cache) settle(e *pluginInfo, rec *client.Record) {
	if len(rec.PluginInfo) > 0 && string(rec.PluginInfo) != "null" {
		e.info = rec.PluginInfo
	}
	e.ok, e.since = true, c.now()
	close(e.ready)
}

// expired reports whether a settled plugin_info is older than maxAge,
// should one provider process outlive an operation. It runs under c.mu.
func (c *Cache) expired(e *pluginInfo) bool {
	return e.ok && c.now().Sub(e.since) > maxAge
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

// fromPages returns record id from the collection's pages, fetching pages
// when the demand warrants it, or nil when the caller should GET it. For a
// direct read it also returns a channel to close once the GET has returned.
func (c *Cache) fromPages(ctx context.Context, k collKey, id int64) (*client.Record, chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stateOf(k)
	counted := false // whether this read is among s.misses already
	for {
		if rec, ok := s.records[id]; ok {
			delete(s.records, id) // one read per page record; another asks the service
			return rec, nil
		}
		if b := s.inflight; b != nil {
			// The batch may bring it: wait rather than send a GET.
			if !counted {
				b.waiting = append(b.waiting, id)
			}
			c.mu.Unlock()
			select {
			case <-b.done:
			case <-ctx.Done():
			}
			c.mu.Lock()
			if ctx.Err() != nil {
				return nil, nil // the GET reports the cancellation
			}
			counted = true // the batch counted this read unless it brought the record
			continue
		}
		if s.failed {
			return nil, nil // cannot list: a record is read by GET
		}
		unfetched := s.unfetched(c.pageSize)
		switch {
		case len(unfetched) == 0:
			return nil, nil // listed: a record not shown is read by GET
		case s.count < 0 && s.direct < directReads:
			s.direct++
			s.misses++
			s.directDone = make(chan struct{})
			return nil, s.directDone
		case s.count < 0:
			c.start(ctx, k, s, []int{0})
			continue
		}
		if !counted {
			s.misses++
			counted = true
		}
		if 2*s.misses < len(unfetched) {
			return nil, nil // listing the rest would cost more than the GETs so far
		}
		c.start(ctx, k, s, unfetched)
	}
}

// stateOf returns the state of collection k, fresh when it is new or its
// pages are older than maxAge.
func (c *Cache) stateOf(k collKey) *collState {
	now := c.now()
	s := c.colls[k]
	if s == nil {
		s = &collState{}
		s.reset(now)
		c.colls[k] = s
	} else if s.inflight == nil && now.Sub(s.since) > maxAge {
		s.reset(now)
	}
	return s
}

// start fetches pages of collection k in the background; reads wait for the
// batch through s.inflight. It runs under c.mu.
func (c *Cache) start(ctx context.Context, k collKey, s *collState, pages []int) {
	b := &batch{done: make(chan struct{}), pages: pages, gen: c.gen}
	for _, p := range pages {
		s.fetched[p] = true
	}
	s.inflight = b
	tflog.Debug(ctx, "listing records to serve reads from pages", map[string]any{
		"collection": string(k.coll), "project": k.project, "pages": len(pages),
		"first_offset": pages[0] * c.pageSize, "count": s.count, "misses": s.misses,
	})
	// The pages serve every waiting read: one read's cancellation must not
	// fail them. The client's timeouts and retries bound the fetch.
	go c.fetch(context.WithoutCancel(ctx), k, s, b)
}

// fetch gets the batch's pages, at most fetchParallelism at a time, then
// files their records and wakes the reads waiting for them.
func (c *Cache) fetch(ctx context.Context, k collKey, s *collState, b *batch) {
	pages := make([]*client.Page, len(b.pages))
	errs := make([]error, len(b.pages))
	var wg sync.WaitGroup
	sem := make(chan struct{}, fetchParallelism)
	for i, p := range b.pages {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			pages[i], errs[i] = c.api.List(ctx, k.project, k.coll, c.pageSize, p*c.pageSize)
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
		if s.pages(c.pageSize) > client.MaxListPages {
			// A count past a listing's budget: not a collection to list.
			tflog.Warn(ctx, "the service counts more records than a listing reads; reading records one by one", map[string]any{
				"collection": string(k.coll), "project": k.project, "count": page.Count,
			})
			s.failed = true
		}
		if b.pages[i] == 0 && int64(len(page.Results)) >= page.Count {
			s.complete = true
		}
		for j := range page.Results {
			rec := &page.Results[j]
			if c.invalidated[rec.ID] > b.gen {
				continue // written while the page was under way: it may be stale
			}
			s.records[rec.ID] = rec
		}
	}
	for _, id := range b.waiting {
		if _, ok := s.records[id]; !ok {
			s.misses++
		}
	}
	s.inflight = nil
	s.since = c.now()
	close(b.done)
}
