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
	p, err := decodePageOf[Record](body)
	if err != nil {
		return nil, err
	}
	return &Page{Count: p.count, Next: p.next, Previous: p.previous, Results: p.results}, nil
}

// pageOf is one page of any listing, as the walk (listAll) reads it.
type pageOf[T any] struct {
	count          int64
	next, previous *string
	results        []T
	// size is the answer's length in bytes, for the listing's budget.
	size int
}

// decodePageOf reads a page of T as decodePage reads one of records.
func decodePageOf[T any](body []byte) (*pageOf[T], error) {
	if b := bytes.TrimSpace(body); len(b) > 0 && b[0] == '[' {
		var results []T
		if err := json.Unmarshal(b, &results); err != nil {
			return nil, err
		}
		return &pageOf[T]{count: int64(len(results)), results: results, size: len(body)}, nil
	}
	var w struct {
		Count    jsonvalue.FlexInt `json:"count"`
		Next     *string           `json:"next"`
		Previous *string           `json:"previous"`
		Results  []T               `json:"results"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	return &pageOf[T]{count: int64(w.Count), next: w.Next, previous: w.Previous, results: w.Results, size: len(body)}, nil
}

// The budget of one listing (listAll). A project holds at most a few
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

// ListAll returns every record of a collection, across all pages, as
// listAll walks them.
func (c *Client) ListAll(ctx context.Context, project string, coll Collection) ([]Record, error) {
	what := fmt.Sprintf("%s of project %s", coll, project)
	return listAll(ctx, what, c.pageSize, func(offset int) (*pageOf[Record], error) {
		page, err := c.List(ctx, project, coll, c.pageSize, offset)
		if err != nil {
			return nil, err
		}
		return &pageOf[Record]{count: page.Count, next: page.Next, results: page.Results, size: page.size}, nil
	}, func(rec *Record) int64 { return rec.ID })
}

// listAll is the one walk of a listing's pages (what names it in errors),
// for every listing of the client: fetch reads the page at offset, of
// pageSize entries, and id tells an entry.
//
// It walks pages by offset arithmetic (offset += len(results)) and never
// follows next: behind a proxy its scheme or host can be wrong. It stops at
// an empty page or once offset reaches the latest count (which may change
// during the walk). An entry seen twice (entries shifting between pages)
// is kept once. A page that brings nothing new while count says more
// remain means the server ignores offset: that is an error, not an endless
// loop nor a silently short list. So are a next link that does not move
// forward, a count past the budget above, and pages that go on past it;
// ctx's deadline ends the walk too.
func listAll[T any](ctx context.Context, what string, pageSize int, fetch func(offset int) (*pageOf[T], error), id func(*T) int64) ([]T, error) {
	var out []T
	seen := make(map[int64]bool)
	offset, pages, size := 0, 0, 0
	for {
		page, err := fetch(offset)
		if err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, fmt.Errorf("listing %s: stopped at the operation's time limit after %d pages (%d records): %w",
					what, pages, len(out), err)
			}
			return nil, err
		}
		pages++
		size += page.size
		if len(page.results) == 0 {
			return out, nil
		}
		fresh := 0
		for i := range page.results {
			if seen[id(&page.results[i])] {
				continue
			}
			seen[id(&page.results[i])] = true
			out = append(out, page.results[i])
			fresh++
		}
		at := offset
		offset += len(page.results)
		switch {
		case page.count > 0 && int64(offset) >= page.count:
			return out, nil
		case page.count <= 0 && len(page.results) < pageSize:
			return out, nil // no count: a short page is the last
		case fresh == 0:
			return nil, fmt.Errorf("listing %s: the page at offset %d repeats records already listed while count is %d; the service seems to ignore offset",
				what, at, page.count)
		case pages >= MaxListPages || size >= maxListBytes:
			return nil, fmt.Errorf("listing %s: stopped at the budget of one listing (%d pages or %d MiB) after %d pages, %.1f MiB and %d records, with more to come (count %d): the service's pages do not seem to end",
				what, MaxListPages, maxListBytes>>20, pages, float64(size)/(1<<20), len(out), page.count)
		case page.count > int64(MaxListPages*pageSize):
			return nil, fmt.Errorf("listing %s: the service counts %d records, past the budget of one listing (%d pages of %d records, several times the largest listing)",
				what, page.count, MaxListPages, pageSize)
		}
		if next := nextOffset(page.next); next >= 0 && next <= at {
			return nil, fmt.Errorf("listing %s: the page at offset %d links to offset %d as the next page; the service's pages do not move forward",
				what, at, next)
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
