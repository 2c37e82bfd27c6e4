package client

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
)

// CurrentProject is the address of the API key owner's current project.
const CurrentProject = "@current"

// currentProject is the id "@current" stands for (0: not known yet), as a
// record's team_id told (GET /api/projects/@current/ needs a scope
// plugin-only keys lack); look makes plans waiting for one answer send one request.
type currentProject struct {
	id   atomic.Int64
	look sync.Mutex
}

// noteCurrentProject remembers what "@current" stands for when recs,
// answered to a request addressed to project, tell it.
func (c *Client) noteCurrentProject(project string, recs []Record) {
	for i := range recs {
		if project == CurrentProject && recs[i].TeamID > 0 {
			c.current.id.Store(recs[i].TeamID)
			return
		}
	}
}

// currentProjectID returns the id "@current" stands for, if an answer told.
func (c *Client) currentProjectID() (int64, bool) {
	id := c.current.id.Load()
	return id, id != 0
}

// SameProject reports whether the project addresses held and other (each a
// project id or "@current") name one project: as an answer told what
// "@current" stands for, else as record id of coll, held in project held,
// is found under the other (without a record, id 0, they differ).
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
	if cur, ok := c.currentProjectID(); ok || id <= 0 {
		return ok && cur == n, nil
	}
	c.current.look.Lock()
	defer c.current.look.Unlock()
	if cur, ok := c.currentProjectID(); ok {
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
	if _, err = c.Get(ctx, numeric, coll, id); IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}
