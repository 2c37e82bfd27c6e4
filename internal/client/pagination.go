package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// Page is one page of a collection's listing.
type Page = listPage[Record]

// listPage is one page of any listing.
type listPage[T any] struct {
	Count   int64
	Next    *string
	Results []T
	size    int // the answer's length in bytes, for the listing's budget
}

// List returns one page of a collection: at most limit records (<= 0: the
// service's page size) from offset on.
func (c *Client) List(ctx context.Context, project string, coll Collection, limit, offset int) (*Page, error) {
	if strings.TrimSpace(project) == "" {
		return nil, errors.New("project id must not be empty")
	}
	t := target{project: project, coll: coll}
	page, err := getPage[Record](ctx, c, t.collectionPath(), coll, limit, offset)
	if err == nil || IsServiceGone(err) { // the collection's own route tells whether its API is gone
		c.colls.mu.Lock()
		c.colls.gone[t] = err != nil
		c.colls.mu.Unlock()
	}
	if err != nil {
		return nil, err
	}
	c.noteRecords(project, page.Results...)
	return page, nil
}

// getPage reads the page of limit entries at offset of the listing at
// path, whose 404 is coll's API gone (not an unknown project or organization).
func getPage[T any](ctx context.Context, c *Client, path string, coll Collection, limit, offset int) (*listPage[T], error) {
	page, err := fetchPage[T](ctx, c, path, nil, limit, offset)
	if apiErr := notFound404(err); apiErr != nil && !IsOrganizationNotFound(err) {
		return nil, &ServiceGoneError{Method: apiErr.Method, Path: apiErr.Path, Collection: coll, CollectionPath: path, Err: apiErr}
	}
	return page, err
}

// fetchPage reads the page of limit entries at offset of the listing at
// path, narrowed by query.
func fetchPage[T any](ctx context.Context, c *Client, path string, query url.Values, limit, offset int) (*listPage[T], error) {
	q := url.Values{}
	maps.Copy(q, query)
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	q.Set("offset", strconv.Itoa(max(offset, 0)))
	r := apiRequest{method: http.MethodGet, path: path + "?" + q.Encode()}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	page, err := decodePage[T](resp.body)
	if err != nil {
		return nil, c.decodeError(r, resp, err)
	}
	return page, nil
}

// decodePage reads a page leniently: count may be a numeric string, and a
// bare array (pagination switched off) is a page of them all.
func decodePage[T any](body []byte) (*listPage[T], error) {
	if b := bytes.TrimSpace(body); len(b) > 0 && b[0] == '[' {
		var results []T
		if err := json.Unmarshal(b, &results); err != nil {
			return nil, err
		}
		return &listPage[T]{Count: int64(len(results)), Results: results, size: len(body)}, nil
	}
	var w struct {
		Count   python.FlexInt `json:"count"`
		Next    *string        `json:"next"`
		Results []T            `json:"results"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	return &listPage[T]{Count: int64(w.Count), Next: w.Next, Results: w.Results, size: len(body)}, nil
}

// The budget of one listing: 200 pages of 100 and 64 MiB are several times
// the largest project; a listing past either is a service whose pages do
// not end, and reading on would only grow the provider.
const (
	// MaxListPages is also the most pages the read cache lists of a collection.
	MaxListPages = 200
	maxListBytes = 64 << 20
)

// ListAll returns every record of a collection, across all pages.
func (c *Client) ListAll(ctx context.Context, project string, coll Collection) ([]Record, error) {
	what := fmt.Sprintf("%s of project %s", coll, project)
	return listAll(ctx, what, c.pageSize, func(offset int) (*Page, error) {
		return c.List(ctx, project, coll, c.pageSize, offset)
	}, func(rec *Record) int64 { return rec.ID })
}

// listAll walks a listing's pages by offset arithmetic (next may name the
// wrong host behind a proxy), keeping entries seen twice once; a server
// ignoring offset and pages past the budget are errors, not endless loops.
func listAll[T any, K comparable](ctx context.Context, what string, pageSize int, fetch func(offset int) (*listPage[T], error), id func(*T) K) ([]T, error) {
	var out []T
	seen := make(map[K]bool)
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
		if len(page.Results) == 0 {
			return out, nil
		}
		fresh := 0
		for i := range page.Results {
			if k := id(&page.Results[i]); !seen[k] {
				seen[k] = true
				out = append(out, page.Results[i])
				fresh++
			}
		}
		at := offset
		offset += len(page.Results)
		switch {
		case page.Count > 0 && int64(offset) >= page.Count:
			return out, nil
		case page.Count <= 0 && len(page.Results) < pageSize:
			return out, nil // no count: a short page is the last
		case fresh == 0:
			return nil, fmt.Errorf("listing %s: the page at offset %d repeats records already listed while count is %d; the service seems to ignore offset",
				what, at, page.Count)
		case pages >= MaxListPages || size >= maxListBytes:
			return nil, fmt.Errorf("listing %s: stopped at the budget of one listing (%d pages or %d MiB) after %d pages, %.1f MiB and %d records, with more to come (count %d): the service's pages do not seem to end",
				what, MaxListPages, maxListBytes>>20, pages, float64(size)/(1<<20), len(out), page.Count)
		case page.Count > int64(MaxListPages*pageSize):
			return nil, fmt.Errorf("listing %s: the service counts %d records, past the budget of one listing (%d pages of %d records, several times the largest listing)",
				what, page.Count, MaxListPages, pageSize)
		}
		if next := nextOffset(page.Next); next >= 0 && next <= at {
			return nil, fmt.Errorf("listing %s: the page at offset %d links to offset %d as the next page; the service's pages do not move forward",
				what, at, next)
		}
	}
}

// nextOffset is the offset a next link names, or -1 when it names none.
func nextOffset(next *string) int {
	if next != nil {
		if u, err := url.Parse(*next); err == nil {
			if n, err := strconv.Atoi(u.Query().Get("offset")); err == nil {
				return n
			}
		}
	}
	return -1
}

// PageSize is the number of records the client asks for per page.
func (c *Client) PageSize() int { return c.pageSize }
