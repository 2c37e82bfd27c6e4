package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// List returns one page of a collection: at most limit records from offset
// on. limit <= 0 leaves the page size to the service (100 on the live
// service).
func (c *Client) List(ctx context.Context, project string, coll Collection, limit, offset int) (*Page, error) {
	p, err := collectionPath(project, coll)
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	if offset < 0 {
		offset = 0
	}
	q.Set("offset", strconv.Itoa(offset))
	r := apiRequest{method: http.MethodGet, path: p + "?" + q.Encode()}
	resp, err := c.do(ctx, r)
	if apiErr := notFound404(err); apiErr != nil {
		// The collection's own route: its 404 is the API gone.
		c.rememberListed(project, coll, true)
		return nil, c.goneError(r.method, r.path, project, coll, apiErr)
	}
	if err != nil {
		return nil, err
	}
	page, err := decodePage(resp.body)
	if err != nil {
		return nil, c.decodeError(r, resp, err)
	}
	page.size = len(resp.body)
	c.rememberListed(project, coll, false)
	c.noteRecords(project, coll, page.Results...)
	return page, nil
}

// decodePage reads a page, leniently: count may be a numeric string, and a
// bare array of records (pagination switched off) is a page of them all.
func decodePage(body []byte) (*Page, error) {
	if b := bytes.TrimSpace(body); len(b) > 0 && b[0] == '[' {
		var recs []Record
		if err := json.Unmarshal(b, &recs); err != nil {
			return nil, err
		}
		return &Page{Count: int64(len(recs)), Results: recs}, nil
	}
	var w struct {
		Count    jsonvalue.FlexInt `json:"count"`
		Next     *string           `json:"next"`
		Previous *string           `json:"previous"`
		Results  []Record          `json:"results"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	return &Page{Count: int64(w.Count), Next: w.Next, Previous: w.Previous, Results: w.Results}, nil
}

// The budget of one listing (ListAll). A project holds at most a few
// thousand configs, which the service pages 100 at a time, a few KB each
// (pages leave plugin_info out). 200 pages are 20,000 configs at 100 a page
// and 64 MiB of answers 20,000 records of 3 KB, both several times the
// largest project: a listing past either is a service whose pages do not
// end, and reading on would only grow the provider until the operation's
// time limit.
const (
	// MaxListPages is also the most pages readcache lists of a collection.
	MaxListPages = 200
	maxListBytes = 64 << 20
)

// ListAll returns every record of a collection, across all pages.
//
// It walks pages of Config.PageSize by offset arithmetic (offset +=
// len(results)) and never follows next: behind a proxy its scheme or host
// can be wrong. It stops at an empty page or once offset reaches the
// latest count (which may change during the walk). A record seen twice
// (records shifting between pages) is kept once. A page that brings
// nothing new while count says more remain means the server ignores
// offset: that is an error, not an endless loop nor a silently short list.
// So are a next link that does not move forward, a count past the budget
// above, and pages that go on past it; ctx's deadline ends the walk too.
func (c *Client) ListAll(ctx context.Context, project string, coll Collection) ([]Record, error) {
	var out []Record
	seen := make(map[int64]bool)
	offset, pages, size := 0, 0, 0
	for {
		page, err := c.List(ctx, project, coll, c.pageSize, offset)
		if err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, fmt.Errorf("listing %s of project %s: stopped at the operation's time limit after %d pages (%d records): %w",
					coll, project, pages, len(out), err)
			}
			return nil, err
		}
		pages++
		size += page.size
		if len(page.Results) == 0 {
			return out, nil
		}
		fresh := 0
		for _, rec := range page.Results {
			if seen[rec.ID] {
				continue
			}
			seen[rec.ID] = true
			out = append(out, rec)
			fresh++
		}
		at := offset
		offset += len(page.Results)
		switch {
		case page.Count > 0 && int64(offset) >= page.Count:
			return out, nil
		case page.Count <= 0 && len(page.Results) < c.pageSize:
			return out, nil // no count: a short page is the last
		case fresh == 0:
			return nil, fmt.Errorf("listing %s of project %s: the page at offset %d repeats records already listed while count is %d; the service seems to ignore offset",
				coll, project, at, page.Count)
		case pages >= MaxListPages || size >= maxListBytes:
			return nil, fmt.Errorf("listing %s of project %s: stopped at the budget of one listing (%d pages or %d MiB) after %d pages, %.1f MiB and %d records, with more to come (count %d): the service's pages do not seem to end",
				coll, project, MaxListPages, maxListBytes>>20, pages, float64(size)/(1<<20), len(out), page.Count)
		case page.Count > int64(MaxListPages*c.pageSize):
			return nil, fmt.Errorf("listing %s of project %s: the service counts %d records, past the budget of one listing (%d pages of %d records, several times the largest project)",
				coll, project, page.Count, MaxListPages, c.pageSize)
		}
		if next := nextOffset(page.Next); next >= 0 && next <= at {
			return nil, fmt.Errorf("listing %s of project %s: the page at offset %d links to offset %d as the next page; the service's pages do not move forward",
				coll, project, at, next)
		}
	}
}

// nextOffset is the offset a next link names, or -1 when it names none.
func nextOffset(next *string) int {
	if next == nil {
		return -1
	}
	u, err := url.Parse(*next)
	if err != nil {
		return -1
	}
	n, err := strconv.Atoi(u.Query().Get("offset"))
	if err != nil {
		return -1
	}
	return n
}

// PageSize is the number of records the client asks for per page.
func (c *Client) PageSize() int { return c.pageSize }
