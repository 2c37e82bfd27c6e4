package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Get retrieves one record.
func (c *Client) Get(ctx context.Context, project string, coll Collection, id int64) (*Record, error) {
	rec, _, err := c.recordCall(ctx, target{project, coll, id, ""}.request(http.MethodGet))
	return rec, err
}

// Create creates a record, never sending it twice (a failure may have created
// it when MayHaveApplied); a success without an id is an *UnsavedError.
func (c *Client) Create(ctx context.Context, project string, coll Collection, in RecordInput) (*Record, error) {
	t := target{project: project, coll: coll}
	r := apiRequest{method: http.MethodPost, path: t.collectionPath(), target: t}
	var err error
	if r.body, r.contentType, err = encodeRecordInput(in); err != nil {
		return nil, fmt.Errorf("create in %s: %w", coll, err)
	}
	rec, status, err := c.recordCall(ctx, r)
	if unsaved := err == nil && rec.ID == 0; unsaved || IsCreationDisabled(err) {
		c.colls.mu.Lock()
		c.colls.noCreates = true
		c.colls.mu.Unlock()
		if unsaved {
			return nil, &UnsavedError{Method: r.method, Path: r.path, Status: status, Record: rec}
		}
	}
	return rec, err
}

// Update partially updates a record: only the fields set in in are sent.
func (c *Client) Update(ctx context.Context, project string, coll Collection, id int64, in RecordInput) (*Record, error) {
	r := target{project, coll, id, ""}.request(http.MethodPatch)
	var err error
	if r.body, r.contentType, err = encodeRecordInput(in); err != nil {
		return nil, fmt.Errorf("update of %s %d: %w", coll, id, err)
	}
	rec, _, err := c.recordCall(ctx, r)
	return rec, err
}

// Delete calls DELETE on a record (the live service only disables it, and
// answers 500 for an unknown id).
func (c *Client) Delete(ctx context.Context, project string, coll Collection, id int64) error {
	_, err := c.call(ctx, target{project, coll, id, ""}.request(http.MethodDelete))
	return err
}

// Frontend retrieves a record's frontend source, as text.
func (c *Client) Frontend(ctx context.Context, project string, coll Collection, id int64) (*Frontend, error) {
	r := target{project, coll, id, "frontend"}.request(http.MethodGet)
	r.accept = "*/*"
	resp, err := c.call(ctx, r)
	if err != nil {
		return nil, err
	}
	return &Frontend{ContentType: resp.header.Get("Content-Type"), Content: string(resp.body)}, nil
}

// RunJob starts a job of a record's plugin by POSTing {"job": job}; any 2xx
// is success. Like a create it is never sent twice.
func (c *Client) RunJob(ctx context.Context, project string, coll Collection, id int64, job Job) error {
	if len(job.Payload) > 0 && !json.Valid(job.Payload) {
		return fmt.Errorf("job of %s %d: payload is not valid JSON", coll, id)
	}
	r := target{project, coll, id, "job"}.request(http.MethodPost)
	r.body, _ = json.Marshal(map[string]Job{"job": job}) // cannot fail: the payload is valid JSON
	r.contentType = contentTypeJSON
	_, err := c.call(ctx, r)
	return err
}

// recordCall sends r and decodes the record it answers with.
func (c *Client) recordCall(ctx context.Context, r apiRequest) (*Record, int, error) {
	resp, err := c.call(ctx, r)
	if err != nil {
		return nil, 0, err
	}
	var rec Record
	if err := json.Unmarshal(resp.body, &rec); err != nil {
		return nil, 0, c.decodeError(r, resp, err)
	}
	c.noteRecords(r.target.project, rec)
	return &rec, resp.status, nil
}

// target is what a request is about: collection coll of project, record id
// of it and the record's action ("": the record itself).
type target struct {
	project string
	coll    Collection
	id      int64
	action  string
}

// collectionPath is /api/projects/{project}/{collection}/.
func (t target) collectionPath() string { return projectPath(t.project, string(t.coll)) }

// projectPath is /api/projects/{project}/{route}/. Paths end with a slash,
// as the spec names them: a write redirected to add one would be lost.
func projectPath(project, route string) string {
	return "/api/projects/" + url.PathEscape(project) + "/" + url.PathEscape(route) + "/"
}

// request is a request of method to t's record, or its action.
func (t target) request(method string) apiRequest {
	p := t.collectionPath() + FormatID(t.id) + "/"
	if t.action != "" {
		p += t.action + "/"
	}
	return apiRequest{method: method, path: p, target: t}
}

// organizationPath is /api/organizations/{org}/{listing}/.
func organizationPath(org string, listing PluginListing) (string, error) {
	if strings.TrimSpace(org) == "" {
		return "", errors.New("organization id must not be empty")
	}
	return "/api/organizations/" + url.PathEscape(org) + "/" + url.PathEscape(string(listing)) + "/", nil
}
