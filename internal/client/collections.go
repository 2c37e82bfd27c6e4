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
// its life (one Terraform operation), and of which version it is (DESIGN.md,
// "Versions of the service are told apart once"); safe for concurrent use.
type collections struct {
	mu                           sync.Mutex
	gone                         map[target]bool    // whether its API is gone, once a look told
	probes                       singleflight.Group // concurrent 404s share one look
	noFilters                    bool               // records came without filters (C or later)
	withFilters                  bool               // records came with filters (B)
	noCreates                    bool               // a create stored nothing, or records came as today's
	look                         sync.Once          // Learn's one look
	actionsProbe                 sync.Once          // KeyMayCallActions' one look
	actionsAllowed, actionsKnown bool
	jobProbe                     sync.Once // HasJobAction's one look
	jobRoute, jobKnown           bool
	missingActions               map[target]int64 // an action's 404 although this record existed
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
		return &ServiceGoneError{Method: r.method, Path: r.path, Collection: t.coll, CollectionPath: t.collectionPath(), Err: apiErr}
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

// noteRecords learns from records of project whether they come without
// filters or as today's service answers them, and what "@current" stands
// for.
func (c *Client) noteRecords(project string, recs ...Record) {
	c.noteCurrentProject(project, recs)
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	for i := range recs {
		if recs[i].FiltersOmitted() {
			c.colls.noFilters = true
		} else if recs[i].ID != 0 {
			c.colls.withFilters = true
		}
		if recs[i].ID != 0 && recs[i].DeliveryRateOmitted() {
			c.colls.noCreates = true
		}
	}
}

// StoresConfigs reports whether the service stores the configs it is sent
// (records came with filters: version B) or not (a create stored nothing,
// or records came without delivery_rate_24h: E or later), and whether
// either told. Records without filters tell nothing: C and D store configs.
func (c *Client) StoresConfigs() (stores, known bool) {
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	switch {
	case c.colls.noCreates:
		return false, true
	case c.colls.withFilters:
		return true, true
	}
	return false, false
}

// Learn looks at records of project, once in the client's life (the
// service is one version whatever the project), when none came yet: the
// first record of coll, else of the other collection, so that
// StoresConfigs and DropsFilters tell what they can before anything is
// written.
func (c *Client) Learn(ctx context.Context, project string, coll Collection) {
	c.colls.mu.Lock()
	seen := c.colls.noFilters || c.colls.withFilters
	c.colls.mu.Unlock()
	if seen {
		return
	}
	c.colls.look.Do(func() {
		for _, in := range []Collection{coll, coll.other()} {
			if page, err := c.List(ctx, project, in, 1, 0); err != nil || len(page.Results) > 0 {
				return
			}
		}
	})
}

// LearnStoresConfigs is StoresConfigs after Learn.
func (c *Client) LearnStoresConfigs(ctx context.Context, project string, coll Collection) (stores, known bool) {
	if stores, known := c.StoresConfigs(); known {
		return stores, known
	}
	c.Learn(ctx, project, coll)
	return c.StoresConfigs()
}

// DropsFilters reports whether the service answered records without a
// filters field: every version since mid-August 2024 (PostHog PR #24374),
// which ignores filters.
func (c *Client) DropsFilters() bool {
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	return c.colls.noFilters
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

// HasJobAction reports whether the service has the job action (versions
// B and C), and whether anything told: what StoresConfigs knows, else one
// GET, once, of the job route of config id, which must exist; the action
// serves only POST, so nothing runs (DESIGN.md, "Versions of the service").
func (c *Client) HasJobAction(ctx context.Context, project string, coll Collection, id int64) (has, known bool) {
	if stores, known := c.StoresConfigs(); known {
		return stores, true // only B's records tell that it stores configs
	}
	c.colls.jobProbe.Do(func() {
		_, err := c.call(ctx, target{project, coll, id, "job"}.request(http.MethodGet))
		switch {
		case IsMissingAction(err) || IsServiceGone(err):
			c.colls.jobKnown = true
		case err == nil, StatusOf(err) == http.StatusMethodNotAllowed || IsKeyRefused(err):
			c.colls.jobRoute, c.colls.jobKnown = true, true
		}
	})
	return c.colls.jobRoute, c.colls.jobKnown
}
