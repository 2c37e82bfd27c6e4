package client

import (
	"bytes"
	"context"
	"encoding/json"
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

// ListAll returns every record of a collection, across all pages.
//
// It walks pages of Config.PageSize by offset arithmetic (offset +=
// len(results)) and never follows next: behind a proxy its scheme or host
// can be wrong. It stops at an empty page or once offset reaches the
// latest count (which may change during the walk). A record seen twice
// (records shifting between pages) is kept once. A page that brings
// nothing new while count says more remain means the server ignores
// offset: that is an error, not an endless loop nor a silently short list.
func (c *Client) ListAll(ctx context.Context, project string, coll Collection) ([]Record, error) {
	var out []Record
	seen := make(map[int64]bool)
	offset := 0
	for {
		page, err := c.List(ctx, project, coll, c.pageSize, offset)
		if err != nil {
			return nil, err
		}
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
		offset += len(page.Results)
		switch {
		case page.Count > 0 && int64(offset) >= page.Count:
			return out, nil
		case page.Count <= 0 && len(page.Results) < c.pageSize:
			return out, nil // no count: a short page is the last
		case fresh == 0:
			return nil, fmt.Errorf("listing %s of project %s: the page at offset %d repeats records already listed while count is %d; the service seems to ignore offset",
				coll, project, offset-len(page.Results), page.Count)
		}
	}
}

// PageSize is the number of records the client asks for per page.
func (c *Client) PageSize() int { return c.pageSize }
