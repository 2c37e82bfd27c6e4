package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"

	"golang.org/x/sync/singleflight"
)

// collections is what the client learns of the service's collections in
// its life (one Terraform operation); safe for concurrent use.
type collections struct {
	mu                           sync.Mutex
	gone                         map[target]bool       // whether its API is gone, once a look told
	probes                       singleflight.Group    // concurrent 404s share one look
	noFilters                    map[Collection]bool   // its records came without filters
	withFilters                  bool                  // records came with filters
	noCreates                    bool                  // a create stored nothing
	storesProbes                 map[target]*sync.Once // LearnStoresConfigs' one look per collection
	actionsProbe                 sync.Once             // KeyMayCallActions' one look
	actionsAllowed, actionsKnown bool
	missingActions               map[target]int64 // an action's 404 although this record existed
}

func (s *collections) init() {
	s.gone = map[target]bool{}
	s.noFilters = map[Collection]bool{}
	s.missingActions = map[target]int64{}
	s.storesProbes = map[target]*sync.Once{}
}

// call sends r like do, and resolves a 404 of it against r.target.
func (c *Client) call(ctx context.Context, r apiRequest) (*apiResponse, error) {
	if strings.TrimSpace(r.target.project) == "" {
		return nil, errors.New("project id must not be empty")
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
	gone, known := c.collectionGone(ctx, t)
	switch {
	case !known:
		return err
	case gone:
		return goneError(r, apiErr)
	case t.action == "":
		return err
	}
	k := target{project: t.project, coll: t.coll, action: t.action}
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

// goneError is the *ServiceGoneError of r, a request to r.target's collection.
func goneError(r apiRequest, apiErr *APIError) error {
	return &ServiceGoneError{Method: r.method, Path: r.path, Collection: r.target.coll, CollectionPath: r.target.collectionPath(), Err: apiErr}
}

// collectionGone reports whether t's collection answers 404, asking once
// for its first record; known is false when that look failed otherwise.
// Concurrent 404s share one look; one that another request made and could
// not finish (its context ended, say) is made again under this request's.
func (c *Client) collectionGone(ctx context.Context, t target) (gone, known bool) {
	k := target{project: t.project, coll: t.coll}
	for ctx.Err() == nil {
		mine := false
		look := c.colls.probes.DoChan(k.collectionPath(), func() (any, error) {
			mine = true
			c.colls.mu.Lock()
			gone, known := c.colls.gone[k]
			c.colls.mu.Unlock()
			if known {
				return gone, nil
			}
			_, err := c.do(ctx, apiRequest{method: http.MethodGet, path: k.collectionPath() + "?limit=1"})
			if err != nil && notFound404(err) == nil {
				return nil, nil // not known
			}
			c.colls.mu.Lock()
			c.colls.gone[k] = err != nil
			c.colls.mu.Unlock()
			return err != nil, nil
		})
		select {
		case r := <-look:
			if gone, known = r.Val.(bool); known || mine {
				return gone, known
			}
		case <-ctx.Done(): // the look goes on for the others
		}
	}
	return false, false
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

// StoresConfigs reports whether the service stores configs (records came with
// filters) or not (without them, or a create stored nothing), and whether either told.
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
	k := target{project: project, coll: coll}
	c.colls.mu.Lock()
	once := c.colls.storesProbes[k]
	if once == nil {
		once = new(sync.Once)
		c.colls.storesProbes[k] = once
	}
	c.colls.mu.Unlock()
	once.Do(func() { _, _ = c.List(ctx, project, coll, 1, 0) })
	return c.StoresConfigs()
}

// DropsFilters reports whether the service answered records of coll
// without a filters field (generation 2, which ignores filters).
func (c *Client) DropsFilters(coll Collection) bool {
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	return c.colls.noFilters[coll]
}

// KeyMayCallActions reports whether the key may call the custom actions
// (the service refuses every key with scopes) and whether one look at the
// frontend of config id told.
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
