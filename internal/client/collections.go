package client

import (
	"context"
	"net/http"
	"sync"
)

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

// collections is what the client learns of the service's collections in
// its life (one Terraform operation), safe for concurrent use.
type collections struct {
	mu sync.Mutex
	// gone holds whether a collection's API is gone, once a look told;
	// probing lets one look at a collection go at a time.
	gone    map[collKey]bool
	probing map[collKey]chan struct{}
	// noFilters holds the collections whose records came without filters;
	// withFilters: records came with them; noCreates: a create stored
	// nothing.
	noFilters              map[Collection]bool
	withFilters, noCreates bool
	// storesProbes is the one look per collection LearnStoresConfigs takes.
	storesProbes map[collKey]*sync.Once
	// actionsProbe is the one look KeyMayCallActions takes.
	actionsProbe                 sync.Once
	actionsAllowed, actionsKnown bool
	// missingActions holds, per action answered 404 although the record
	// existed, the id of that record.
	missingActions map[actionKey]int64
}

func (s *collections) init() {
	s.gone = map[collKey]bool{}
	s.probing = map[collKey]chan struct{}{}
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
	if err := checkTarget(r.target.project, r.target.coll); err != nil {
		return nil, err
	}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, c.resolveNotFound(ctx, err, r)
	}
	return resp, nil
}

// resolveNotFound tells what a 404 means: a *ServiceGoneError when the
// collection answers 404 too, a *MissingActionError when the record of an
// action exists, else err, a missing record.
func (c *Client) resolveNotFound(ctx context.Context, err error, r apiRequest) error {
	t := r.target
	apiErr := notFound404(err)
	if apiErr == nil {
		return err
	}
	gone, known := c.collectionGone(ctx, t.project, t.coll)
	switch {
	case !known:
		return err
	case gone:
		return c.goneError(r.method, r.path, t.project, t.coll, apiErr)
	case t.action == "":
		return err
	}
	k := actionKey{collKey{t.project, t.coll}, t.action}
	c.colls.mu.Lock()
	existing, known := c.colls.missingActions[k]
	c.colls.mu.Unlock()
	if !known {
		if _, getErr := c.Get(ctx, t.project, t.coll, t.id); getErr != nil {
			return err // the record is missing (or cannot be read): the 404 stands
		}
		existing = t.id
		c.colls.mu.Lock()
		c.colls.missingActions[k] = t.id
		c.colls.mu.Unlock()
	}
	return &MissingActionError{Action: t.action, Method: r.method, Path: r.path, ID: t.id, Existing: existing, Err: apiErr}
}

// goneError is the *ServiceGoneError of a request to collection coll.
func (c *Client) goneError(method, path, project string, coll Collection, apiErr *APIError) error {
	return &ServiceGoneError{Method: method, Path: path, Collection: coll, CollectionPath: collectionPath(project, coll), Err: apiErr}
}

// collectionGone reports whether coll of project answers 404, asking once
// for its first record; known is false when that look failed otherwise.
func (c *Client) collectionGone(ctx context.Context, project string, coll Collection) (gone, known bool) {
	k := collKey{project, coll}
	c.colls.mu.Lock()
	turn := c.colls.probing[k]
	if turn == nil {
		turn = make(chan struct{}, 1)
		c.colls.probing[k] = turn
	}
	c.colls.mu.Unlock()
	select { // concurrent 404s wait for one look
	case turn <- struct{}{}:
		defer func() { <-turn }()
	case <-ctx.Done():
		return false, false
	}
	c.colls.mu.Lock()
	gone, known = c.colls.gone[k]
	c.colls.mu.Unlock()
	if known {
		return gone, true
	}
	_, err := c.do(ctx, apiRequest{method: http.MethodGet, path: collectionPath(project, coll) + "?limit=1"})
	if err != nil && notFound404(err) == nil {
		return false, false
	}
	c.rememberListed(project, coll, err != nil)
	return err != nil, true
}

// rememberListed records what a list of a collection's own route told: a
// 404 that its API is gone, a page that it is not.
func (c *Client) rememberListed(project string, coll Collection, gone bool) {
	c.colls.mu.Lock()
	c.colls.gone[collKey{project, coll}] = gone
	c.colls.mu.Unlock()
}

// noteRecords learns from records of coll of project whether they come
// without filters, and what "@current" stands for.
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

// StoresConfigs reports whether the service stores the configs it is sent,
// as records with filters (generation 1) or without them, or a create that
// stored nothing (generation 2), told; known is false before either.
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

// LearnStoresConfigs tells StoresConfigs, looking at one record of coll of
// project, once, when nothing told yet.
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

// DropsFilters reports whether the service answered records of coll
// without a filters field (generation 2, which ignores filters).
func (c *Client) DropsFilters(coll Collection) bool {
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	return c.colls.noFilters[coll]
}

// KeyMayCallActions reports whether the key may call the custom actions,
// which the service refuses every key with scopes, and whether that could
// be told, by one look at the frontend of config id.
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
