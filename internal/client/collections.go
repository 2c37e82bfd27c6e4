package client

import (
	"context"
	"net/http"
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
