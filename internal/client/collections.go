package client

import (
	"context"
	"net/http"
	"sync"
)

// What the client learns about the service's collections during its life
// (one Terraform operation): whether a collection's API is gone, and
// whether its records come without a filters field.

// collKey names one collection of one project.
type collKey struct {
	project string
	coll    Collection
}

// actionKey names one action of the records of one collection.
type actionKey struct {
	collKey
	action string
}

// collections is what the client learned, safe for concurrent use.
type collections struct {
	mu sync.Mutex
	// probes holds, per collection of a project, whether its API is gone,
	// once a probe has told.
	probes map[collKey]*probe
	// noFilters holds the collections whose records came without a
	// filters field.
	noFilters map[Collection]bool
	// withFilters: records came with a filters field (a service that
	// stores configs); noCreates: a create stored nothing.
	withFilters, noCreates bool
	// storesProbes: the one look per collection of a project that
	// LearnStoresConfigs takes.
	storesProbes map[collKey]*sync.Once
	// actionsProbe: the one look that KeyMayCallActions takes.
	actionsProbe                 sync.Once
	actionsAllowed, actionsKnown bool
	// missingActions holds, per action the service answered 404 for
	// although the record existed, the id of that record.
	missingActions map[actionKey]int64
}

// probe is one look at a collection's own route; done is closed once gone
// and known are set.
type probe struct {
	done  chan struct{}
	gone  bool
	known bool
}

func (s *collections) init() {
	s.probes = map[collKey]*probe{}
	s.noFilters = map[Collection]bool{}
	s.missingActions = map[actionKey]int64{}
	s.storesProbes = map[collKey]*sync.Once{}
}

// target names what a request is about: collection coll of project, record
// id of it (0: none) and the record's action ("" for the record itself).
type target struct {
	project string
	coll    Collection
	id      int64
	action  string
}

// call sends r like do, and resolves a 404 of it against r.target.
func (c *Client) call(ctx context.Context, r apiRequest) (*apiResponse, error) {
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, c.resolveNotFound(ctx, err, r)
	}
	return resp, nil
}

// resolveNotFound tells what a 404 of a route of collection coll means, once
// per collection of a project for the client's life (one GET of the
// collection's first record): a *ServiceGoneError when the collection's own
// route answers 404 too; for a record's action (action set), a
// *MissingActionError when the record exists (one GET of it, until one
// record of the collection confirmed the action missing); otherwise err as
// it is, a missing record. Any other error, and the service's unknown
// project, come back as they are.
func (c *Client) resolveNotFound(ctx context.Context, err error, r apiRequest) error {
	method, path := r.method, r.path
	project, coll, id, action := r.target.project, r.target.coll, r.target.id, r.target.action
	apiErr := notFound404(err)
	if apiErr == nil {
		return err
	}
	gone, known := c.collectionGone(ctx, project, coll)
	if !known {
		return err
	}
	if gone {
		return c.goneError(method, path, project, coll, apiErr)
	}
	if action == "" {
		return err
	}
	k := actionKey{collKey{project, coll}, action}
	c.colls.mu.Lock()
	existing, known := c.colls.missingActions[k]
	c.colls.mu.Unlock()
	if !known {
		if _, getErr := c.Get(ctx, project, coll, id); getErr != nil {
			return err // the record is missing (or cannot be read): the 404 stands
		}
		existing = id
		c.colls.mu.Lock()
		c.colls.missingActions[k] = id
		c.colls.mu.Unlock()
	}
	return &MissingActionError{Action: action, Method: method, Path: path, ID: id, Existing: existing, Err: apiErr}
}

// goneError is the *ServiceGoneError of a request to collection coll.
func (c *Client) goneError(method, path, project string, coll Collection, apiErr *APIError) error {
	collPath, _ := collectionPath(project, coll)
	return &ServiceGoneError{Method: method, Path: path, Collection: coll, CollectionPath: collPath, Err: apiErr}
}

// collectionGone reports whether collection coll of project answers 404
// (known false when that could not be told: the probe failed otherwise).
// Concurrent callers share one probe; a told answer is remembered.
func (c *Client) collectionGone(ctx context.Context, project string, coll Collection) (gone, known bool) {
	k := collKey{project, coll}
	c.colls.mu.Lock()
	p := c.colls.probes[k]
	if p != nil {
		c.colls.mu.Unlock()
		select {
		case <-p.done:
			return p.gone, p.known
		case <-ctx.Done():
			return false, false
		}
	}
	p = &probe{done: make(chan struct{})}
	c.colls.probes[k] = p
	c.colls.mu.Unlock()

	p.gone, p.known = c.probeCollection(ctx, project, coll)
	c.colls.mu.Lock()
	if !p.known {
		delete(c.colls.probes, k) // the next 404 asks again
	}
	close(p.done)
	c.colls.mu.Unlock()
	return p.gone, p.known
}

// probeCollection asks for the collection's first record.
func (c *Client) probeCollection(ctx context.Context, project string, coll Collection) (gone, known bool) {
	p, err := collectionPath(project, coll)
	if err != nil {
		return false, false
	}
	_, err = c.do(ctx, apiRequest{method: http.MethodGet, path: p + "?limit=1"})
	switch {
	case err == nil:
		return false, true
	case notFound404(err) != nil:
		return true, true
	}
	return false, false
}

// rememberListed records what a list of a collection's own route told: a
// 404 that its API is gone, a page that it is not. The list was the probe.
func (c *Client) rememberListed(project string, coll Collection, gone bool) {
	p := &probe{done: make(chan struct{}), gone: gone, known: true}
	close(p.done)
	c.colls.mu.Lock()
	c.colls.probes[collKey{project, coll}] = p
	c.colls.mu.Unlock()
}

// noteRecords learns from recs, answered to a request of collection coll of
// project: that the collection's records come without a filters field,
// when one of recs does, and what "@current" stands for (projects.go).
func (c *Client) noteRecords(project string, coll Collection, recs ...Record) {
	c.noteCurrentProject(project, recs)
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	for i := range recs {
		if recs[i].FiltersOmitted() {
			c.colls.noFilters[coll] = true
		} else if recs[i].ID != 0 {
			c.colls.withFilters = true
		}
	}
}

// StoresConfigs reports what this client saw of whether the service stores
// the configs it is sent: records with a filters field say it does
// (generation 1); records without one, or a create that stored nothing,
// say it does not (generation 2). known is false before either.
func (c *Client) StoresConfigs() (stores, known bool) {
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	switch {
	case c.colls.noCreates || len(c.colls.noFilters) > 0:
		return false, true
	case c.colls.withFilters:
		return true, true
	}
	return false, false
}

// LearnStoresConfigs tells StoresConfigs, looking at one page of one record
// of collection coll of project when nothing told yet: once per collection
// and project for the client's life (a project without configs tells
// nothing).
func (c *Client) LearnStoresConfigs(ctx context.Context, project string, coll Collection) (stores, known bool) {
	if stores, known := c.StoresConfigs(); known {
		return stores, known
	}
	c.colls.mu.Lock()
	once := c.colls.storesProbes[collKey{project, coll}]
	if once == nil {
		once = new(sync.Once)
		c.colls.storesProbes[collKey{project, coll}] = once
	}
	c.colls.mu.Unlock()
	once.Do(func() { _, _ = c.List(ctx, project, coll, 1, 0) })
	return c.StoresConfigs()
}

// noteNoCreates records a create that stored nothing.
func (c *Client) noteNoCreates() {
	c.colls.mu.Lock()
	c.colls.noCreates = true
	c.colls.mu.Unlock()
}

// DropsFilters reports whether the service answered, during this client's
// life, records of collection coll without a filters field: a service that
// no longer has the field (generation 2), which ignores filters sent to it.
func (c *Client) DropsFilters(coll Collection) bool {
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	return c.colls.noFilters[coll]
}

// KeyMayCallActions reports whether the service lets this client's key call
// the custom actions (rearrange, job, frontend, migrate), which it refuses
// every personal API key with scopes, and whether that could be told. The
// first call asks once for the frontend of config id of collection coll of
// project, which writes nothing and is judged by the same rule.
func (c *Client) KeyMayCallActions(ctx context.Context, project string, coll Collection, id int64) (may, known bool) {
	c.colls.actionsProbe.Do(func() {
		_, err := c.Frontend(ctx, project, coll, id)
		switch {
		case err == nil:
			c.colls.actionsAllowed, c.colls.actionsKnown = true, true
		case IsKeyRefused(err):
			c.colls.actionsKnown = true
		}
	})
	return c.colls.actionsAllowed, c.colls.actionsKnown
}
