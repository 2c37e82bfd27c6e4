package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// Get retrieves one record.
func (c *Client) Get(ctx context.Context, project string, coll Collection, id int64) (*Record, error) {
	p, err := recordPath(project, coll, id, "")
	if err != nil {
		return nil, err
	}
	rec, _, err := c.recordCall(ctx, apiRequest{method: http.MethodGet, path: p, target: target{project, coll, id, ""}})
	return rec, err
}

// Create creates a record; it is never sent twice. It is sent as JSON, or as
// multipart/form-data when in.Config is set (see RecordInput). A failure for
// which MayHaveApplied is true may have created the record. A success
// without a record id is an *UnsavedError: the service saved no config
// (generation 2 made a hog function instead).
func (c *Client) Create(ctx context.Context, project string, coll Collection, in RecordInput) (*Record, error) {
	p, err := collectionPath(project, coll)
	if err != nil {
		return nil, err
	}
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
// Like Create it switches to multipart/form-data when in.Config is set.
func (c *Client) Update(ctx context.Context, project string, coll Collection, id int64, in RecordInput) (*Record, error) {
	p, err := recordPath(project, coll, id, "")
	if err != nil {
		return nil, err
	}
	body, ctype, err := encodeRecordInput(in)
	if err != nil {
		return nil, fmt.Errorf("update of %s %d: %w", coll, id, err)
	}
	rec, _, err := c.recordCall(ctx, apiRequest{method: http.MethodPatch, path: p, body: body, contentType: ctype, target: target{project, coll, id, ""}})
	return rec, err
}

// Delete calls DELETE on a record (on the live service this only disables
// it, and an unknown id gives 500). Any 2xx (204 per the spec) is success.
func (c *Client) Delete(ctx context.Context, project string, coll Collection, id int64) error {
	p, err := recordPath(project, coll, id, "")
	if err != nil {
		return err
	}
	_, err = c.call(ctx, apiRequest{method: http.MethodDelete, path: p, target: target{project, coll, id, ""}})
	return err
}

// Frontend retrieves a record's frontend source. Content is the body as
// text whatever its type: JavaScript on the live service, a JSON document
// per the published schema.
func (c *Client) Frontend(ctx context.Context, project string, coll Collection, id int64) (*Frontend, error) {
	p, err := recordPath(project, coll, id, "frontend")
	if err != nil {
		return nil, err
	}
	resp, err := c.call(ctx, apiRequest{method: http.MethodGet, path: p, accept: "*/*", target: target{project, coll, id, "frontend"}})
	if err != nil {
		return nil, err
	}
	return &Frontend{ContentType: resp.header.Get("Content-Type"), Content: string(resp.body)}, nil
}

// RunJob starts a job of a record's plugin by POSTing {"job": job}. Any 2xx
// is success, whatever its body (the live service's is empty). Like a
// create it is not resent once it may have reached the service.
func (c *Client) RunJob(ctx context.Context, project string, coll Collection, id int64, job Job) error {
	p, err := recordPath(project, coll, id, "job")
	if err != nil {
		return err
	}
	if len(job.Payload) > 0 && !json.Valid(job.Payload) {
		return fmt.Errorf("job of %s %d: payload is not valid JSON", coll, id)
	}
	body, err := json.Marshal(struct {
		Job Job `json:"job"`
	}{job})
	if err != nil {
		return fmt.Errorf("job of %s %d: encoding the request: %w", coll, id, err)
	}
	_, err = c.call(ctx, apiRequest{method: http.MethodPost, path: p, body: body, contentType: contentTypeJSON, target: target{project, coll, id, "job"}})
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

// Migrate asks the service to turn a record into a hog function (the
// migrate action of generation 2 services), and returns the hog function
// the service answers with. The service disables the record. Every call
// makes a hog function, so like a create it is not resent once it may have
// reached the service. A service without the action answers a
// *MissingActionError.
func (c *Client) Migrate(ctx context.Context, project string, coll Collection, id int64) (*HogFunction, error) {
	p, err := recordPath(project, coll, id, "migrate")
	if err != nil {
		return nil, err
	}
	r := apiRequest{method: http.MethodPost, path: p, body: []byte("{}"), contentType: contentTypeJSON, target: target{project, coll, id, "migrate"}}
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

// hogFunctionID reads a hog function's id: a string (a UUID on the live
// service) or an integer; "" when absent or null.
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

// Rearrange sets the order of enabled configs by id and returns every enabled
// config of the project.
//
// The body is {"orders": {"<id>": n, ...}}. The live service answers with a
// bare array of records, which is returned; an object answer (the published
// schema's single record) or an empty body gives a nil slice. Scoped keys
// get 403 here (IsForbidden): fall back to updating order per record.
func (c *Client) Rearrange(ctx context.Context, project string, coll Collection, orders map[int64]int64) ([]Record, error) {
	p, err := collectionPath(project, coll)
	if err != nil {
		return nil, err
	}
	keyed := make(map[string]int64, len(orders))
	for id, n := range orders {
		keyed[FormatID(id)] = n
	}
	body, err := json.Marshal(map[string]any{"orders": keyed})
	if err != nil {
		return nil, fmt.Errorf("rearrange of %s: encoding the request: %w", coll, err)
	}
	r := apiRequest{method: http.MethodPatch, path: p + "rearrange/", body: body, contentType: contentTypeJSON, target: target{project, coll, 0, ""}}
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

// recordCall sends r to its target's collection and decodes the record it
// answers with, and the answer's status.
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
