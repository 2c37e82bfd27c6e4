package client

import (
	"context"
	"strconv"
	"sync"
)

// What the client learns of the projects it addresses: which project
// "@current" (the API key owner's current project) stands for. A record's
// team_id is the id of the project it belongs to, so every record answered
// to a request addressed to "@current" tells it, at no cost.
// (GET /api/projects/@current/ would answer it too, but needs the
// project:read scope, which plugin-only keys lack.)

// CurrentProject is the address of the API key owner's current project.
const CurrentProject = "@current"

// currentProject is the id "@current" stands for, once an answer told.
type currentProject struct {
	mu sync.Mutex
	id int64 // 0: not known
	// look serialises the lookups of SameProject, so that the plans of many
	// resources waiting for the same answer send one request, not one each.
	look sync.Mutex
}

// noteCurrentProject remembers the project "@current" stands for when recs,
// answered to a request addressed to project, tell it.
func (c *Client) noteCurrentProject(project string, recs []Record) {
	if project != CurrentProject {
		return
	}
	for i := range recs {
		if recs[i].TeamID > 0 {
			c.current.mu.Lock()
			c.current.id = recs[i].TeamID
			c.current.mu.Unlock()
			return
		}
	}
}

// CurrentProjectID returns the id of the project "@current" stands for, and
// whether an answer of this client's life has told it.
func (c *Client) CurrentProjectID() (int64, bool) {
	c.current.mu.Lock()
	defer c.current.mu.Unlock()
	return c.current.id, c.current.id != 0
}

// SameProject reports whether the project addresses held and other (each a
// project id or "@current") name one project: equal addresses do, two
// different ids do not, and "@current" and an id do when "@current" stands
// for that id, which any answer addressed to "@current" has told (no request
// of its own). When none has yet, record id of collection coll, which
// belongs to project held (where a state holds it), decides:
//
//   - looked up under "@current", its team_id is the project "@current"
//     stands for, which every later comparison then knows too;
//   - not found there while held is an id: "@current" is another project;
//   - held being "@current" itself (whose project may have changed since,
//     or an answer without team_id), it is looked up under the id: found
//     there, it is the same project.
//
// Without a record (id 0) nothing tells, and the projects count as
// different. Errors are the client's, from a lookup.
func (c *Client) SameProject(ctx context.Context, held, other string, coll Collection, id int64) (bool, error) {
	numeric := held
	switch {
	case held == other:
		return true, nil
	case held == CurrentProject:
		numeric = other
	case other != CurrentProject:
		return false, nil
	}
	n, err := strconv.ParseInt(numeric, 10, 64)
	if err != nil {
		return false, nil //nolint:nilerr // not a project id: not the same project as "@current"
	}
	if cur, ok := c.CurrentProjectID(); ok || id <= 0 {
		return ok && cur == n, nil
	}
	c.current.look.Lock()
	defer c.current.look.Unlock()
	if cur, ok := c.CurrentProjectID(); ok {
		return cur == n, nil // told while this lookup waited for another
	}
	rec, err := c.Get(ctx, CurrentProject, coll, id)
	switch {
	case err == nil && rec.TeamID > 0:
		return rec.TeamID == n, nil
	case err == nil && held != CurrentProject:
		return true, nil // in project held, and under "@current"
	case IsNotFound(err) && held != CurrentProject:
		return false, nil
	case err != nil && !IsNotFound(err):
		return false, err
	}
	_, err = c.Get(ctx, numeric, coll, id)
	switch {
	case err == nil:
		return true, nil
	case IsNotFound(err):
		return false, nil
	}
	return false, err
}
