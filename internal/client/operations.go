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
	"strings"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// Get retrieves one record.
func (c *Client) Get(ctx context.Context, project string, coll Collection, id int64) (*Record, error) {
	rec, _, err := c.recordCall(ctx, apiRequest{method: http.MethodGet, path: recordPath(project, coll, id, ""), target: target{project, coll, id, ""}})
	return rec, err
}

// Create creates a record, never sending it twice: a failure for which
// MayHaveApplied is true may have created it. A success without a record
// id is an *UnsavedError.
func (c *Client) Create(ctx context.Context, project string, coll Collection, in RecordInput) (*Record, error) {
	p := collectionPath(project, coll)
	body, ctype, err := encodeRecordInput(in)
	if err != nil {
		return nil, fmt.Errorf("create in %s: %w", coll, err)
	}
	rec, status, err := c.recordCall(ctx, apiRequest{method: http.MethodPost, path: p, body: body, contentType: ctype, target: target{project, coll, 0, ""}})
	if IsCreationDisabled(err) {
		c.noteNoCreates()
	}
	if err != nil {
		return nil, err
	}
	if rec.ID == 0 {
		c.noteNoCreates()
		return nil, &UnsavedError{Method: http.MethodPost, Path: p, Status: status, Record: rec}
	}
	return rec, nil
}

// Update partially updates a record: only the fields set in in are sent.
func (c *Client) Update(ctx context.Context, project string, coll Collection, id int64, in RecordInput) (*Record, error) {
	body, ctype, err := encodeRecordInput(in)
	if err != nil {
		return nil, fmt.Errorf("update of %s %d: %w", coll, id, err)
	}
	rec, _, err := c.recordCall(ctx, apiRequest{method: http.MethodPatch, path: recordPath(project, coll, id, ""), body: body, contentType: ctype, target: target{project, coll, id, ""}})
	return rec, err
}

// Delete calls DELETE on a record (the live service only disables it, and
// answers 500 for an unknown id).
func (c *Client) Delete(ctx context.Context, project string, coll Collection, id int64) error {
	_, err := c.call(ctx, apiRequest{method: http.MethodDelete, path: recordPath(project, coll, id, ""), target: target{project, coll, id, ""}})
	return err
}

// Frontend retrieves a record's frontend source, as text.
func (c *Client) Frontend(ctx context.Context, project string, coll Collection, id int64) (*Frontend, error) {
	resp, err := c.call(ctx, apiRequest{method: http.MethodGet, path: recordPath(project, coll, id, "frontend"), accept: "*/*", target: target{project, coll, id, "frontend"}})
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
	body, err := json.Marshal(struct {
		Job Job `json:"job"`
	}{job})
	if err != nil {
		return fmt.Errorf("job of %s %d: encoding the request: %w", coll, id, err)
	}
	_, err = c.call(ctx, apiRequest{method: http.MethodPost, path: recordPath(project, coll, id, "job"), body: body, contentType: contentTypeJSON, target: target{project, coll, id, "job"}})
	return err
}

// HogFunction is what the migrate action answers with.
type HogFunction struct {
	// ID is the hog function's id, "" when the answer has none.
	ID   string
	Name string
	// JSON is the whole answer, compact.
	JSON json.RawMessage
}

// Migrate turns a record into a hog function (generation 2's migrate
// action, which disables the record) and returns it. Every call makes one,
// so like a create it is never sent twice.
func (c *Client) Migrate(ctx context.Context, project string, coll Collection, id int64) (*HogFunction, error) {
	r := apiRequest{method: http.MethodPost, path: recordPath(project, coll, id, "migrate"), body: []byte("{}"), contentType: contentTypeJSON, target: target{project, coll, id, "migrate"}}
	resp, err := c.call(ctx, r)
	if err != nil {
		return nil, err
	}
	obj, ok := jsonvalue.Object(string(resp.body))
	if !ok {
		return nil, c.decodeError(r, resp, errors.New("not a JSON object"))
	}
	hf := &HogFunction{ID: hogFunctionID(obj["id"]), JSON: json.RawMessage(jsonvalue.Compact(resp.body))}
	_ = json.Unmarshal(obj["name"], &hf.Name) // a name that is not a string is none
	return hf, nil
}

// hogFunctionID reads a hog function's id, a string or an integer.
func hogFunctionID(raw json.RawMessage) string {
	if jsonvalue.IsNull(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n jsonvalue.FlexInt
	if json.Unmarshal(raw, &n) == nil {
		return strconv.FormatInt(int64(n), 10)
	}
	return ""
}

// Rearrange sets the order of enabled configs by id and returns the
// records the live service answers with (nil for the published schema's
// object); scoped keys get 403.
func (c *Client) Rearrange(ctx context.Context, project string, coll Collection, orders map[int64]int64) ([]Record, error) {
	keyed := make(map[string]int64, len(orders))
	for id, n := range orders {
		keyed[FormatID(id)] = n
	}
	body, err := json.Marshal(map[string]any{"orders": keyed})
	if err != nil {
		return nil, fmt.Errorf("rearrange of %s: encoding the request: %w", coll, err)
	}
	r := apiRequest{method: http.MethodPatch, path: collectionPath(project, coll) + "rearrange/", body: body, contentType: contentTypeJSON, target: target{project, coll, 0, ""}}
	resp, err := c.call(ctx, r)
	if err != nil {
		return nil, err
	}
	b := bytes.TrimSpace(resp.body)
	switch {
	case len(b) == 0:
		return nil, nil
	case b[0] == '[':
		var recs []Record
		if err := json.Unmarshal(b, &recs); err != nil {
			return nil, c.decodeError(r, resp, err)
		}
		c.noteRecords(project, coll, recs...)
		return recs, nil
	case b[0] == '{' && json.Valid(b):
		return nil, nil
	}
	return nil, c.decodeError(r, resp, errors.New("neither an array nor an object"))
}

// recordCall sends r and decodes the record it answers with.
func (c *Client) recordCall(ctx context.Context, r apiRequest) (*Record, int, error) {
	resp, err := c.call(ctx, r)
	if err != nil {
		return nil, 0, err
	}
	var rec Record
	if err := c.decodeJSON(r, resp, &rec); err != nil {
		return nil, 0, err
	}
	c.noteRecords(r.target.project, r.target.coll, rec)
	return &rec, resp.status, nil
}

// Paths end with a slash, as the spec names them: a write redirected to
// add one would be lost. project and org are escaped as one segment.

// collectionPath is /api/projects/{project}/{collection}/.
func collectionPath(project string, coll Collection) string {
	return "/api/projects/" + url.PathEscape(project) + "/" + url.PathEscape(string(coll)) + "/"
}

// recordPath is a record's path, with an action segment unless action is "".
func recordPath(project string, coll Collection, id int64, action string) string {
	p := collectionPath(project, coll) + FormatID(id) + "/"
	if action != "" {
		p += action + "/"
	}
	return p
}

// checkTarget refuses an empty project or collection before anything is sent.
func checkTarget(project string, coll Collection) error {
	if strings.TrimSpace(project) == "" {
		return errors.New("project id must not be empty")
	}
	if strings.TrimSpace(string(coll)) == "" {
		return errors.New("collection must not be empty")
	}
	return nil
}

// organizationPath is /api/organizations/{org}/{listing}/.
func organizationPath(org string, listing PluginListing) (string, error) {
	if strings.TrimSpace(org) == "" {
		return "", errors.New("organization id must not be empty")
	}
	if strings.TrimSpace(string(listing)) == "" {
		return "", errors.New("plugin listing must not be empty")
	}
	return "/api/organizations/" + url.PathEscape(org) + "/" + url.PathEscape(string(listing)) + "/", nil
}
