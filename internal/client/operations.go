// The calls of the API, in the order a request goes through them: the
// operations on records, plugins and hog functions, their paths, what a
// 404 means, the request sent with the retry policy (retry.go), and what
// its answers tell of the project "@current" stands for.

package client

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
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

// Plugin returns plugin id as org's listing shows it; a 404 of the listing
// too is a *ServiceGoneError.
func (c *Client) Plugin(ctx context.Context, org string, id int64) (*Plugin, error) {
	p, err := organizationPath(org, AllPlugins)
	if err != nil {
		return nil, err
	}
	plugin, err := getJSON[Plugin](ctx, c, p+FormatID(id)+"/")
	if apiErr := notFound404(err); apiErr != nil && !IsOrganizationNotFound(err) {
		if _, listErr := getPage[Plugin](ctx, c, p, Collection(AllPlugins), 1, 0); IsServiceGone(listErr) {
			return nil, &ServiceGoneError{Method: apiErr.Method, Path: apiErr.Path, Collection: Collection(AllPlugins), CollectionPath: p, Err: apiErr}
		}
	}
	return plugin, err
}

// ListPlugins returns every plugin of org's listing within the budget of
// one listing; its errors are those of Plugin.
func (c *Client) ListPlugins(ctx context.Context, org string, listing PluginListing) ([]Plugin, error) {
	p, err := organizationPath(org, listing)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("%s of organization %s", listing, org)
	return listAll(ctx, what, c.pageSize, func(offset int) (*listPage[Plugin], error) {
		return getPage[Plugin](ctx, c, p, Collection(listing), c.pageSize, offset)
	}, func(p *Plugin) int64 { return p.ID })
}

// HogTemplate returns template id as project's templates API shows it,
// whatever its status; a 404 means PostHog has no such template.
func (c *Client) HogTemplate(ctx context.Context, project, id string) (*HogTemplate, error) {
	if strings.TrimSpace(project) == "" || strings.TrimSpace(id) == "" {
		return nil, fmt.Errorf("project id and template id must not be empty")
	}
	return getJSON[HogTemplate](ctx, c, projectPath(project, "hog_function_templates")+url.PathEscape(id)+"/")
}

// HogFunctions returns every hog function of project of type typ that is
// not deleted, across all pages.
func (c *Client) HogFunctions(ctx context.Context, project, typ string) ([]HogFunction, error) {
	if strings.TrimSpace(project) == "" {
		return nil, fmt.Errorf("project id must not be empty")
	}
	path, q := projectPath(project, "hog_functions"), url.Values{"type": {typ}}
	what := fmt.Sprintf("the %s hog functions of project %s", typ, project)
	return listAll(ctx, what, c.pageSize, func(offset int) (*listPage[HogFunction], error) {
		return fetchPage[HogFunction](ctx, c, path, q, c.pageSize, offset)
	}, func(f *HogFunction) string { return f.ID })
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

// call sends r like do, and resolves a 404 of it against r.target.
func (c *Client) call(ctx context.Context, r apiRequest) (*apiResponse, error) {
	if strings.TrimSpace(r.target.project) == "" {
		return nil, errors.New("project id must not be empty")
	}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, c.resolveNotFound(ctx, err, r)
	}
	return resp, nil
}

// resolveNotFound tells what a 404 means: a *ServiceGoneError when the
// collection answers 404 too, a *MissingActionError when the record of an
// action exists, else err, a missing record.
func (c *Client) resolveNotFound(ctx context.Context, err error, r apiRequest) error {
	t := r.target
	apiErr := notFound404(err)
	if apiErr == nil {
		return err
	}
	gone, known := c.collectionGone(ctx, t)
	switch {
	case !known:
		return err
	case gone:
		return &ServiceGoneError{Method: r.method, Path: r.path, Collection: t.coll, CollectionPath: t.collectionPath(), Err: apiErr}
	case t.action == "":
		return err
	}
	k := target{project: t.project, coll: t.coll, action: t.action}
	c.colls.mu.Lock()
	existing, known := c.colls.missingActions[k]
	c.colls.mu.Unlock()
	if !known {
		if _, getErr := c.Get(ctx, t.project, t.coll, t.id); getErr != nil {
			return err // the record is missing (or cannot be read): the 404 stands
		}
		existing = t.id
		c.colls.mu.Lock()
		c.colls.missingActions[k] = t.id
		c.colls.mu.Unlock()
	}
	return &MissingActionError{Action: t.action, Method: r.method, Path: r.path, ID: t.id, Existing: existing, Err: apiErr}
}

// collectionGone reports whether t's collection answers 404, asking once
// for its first record; known is false when that look failed otherwise.
// Concurrent 404s share one look; one that another request made and could
// not finish (its context ended, say) is made again under this request's.
func (c *Client) collectionGone(ctx context.Context, t target) (gone, known bool) {
	k := target{project: t.project, coll: t.coll}
	for ctx.Err() == nil {
		mine := false
		look := c.colls.probes.DoChan(k.collectionPath(), func() (any, error) {
			mine = true
			c.colls.mu.Lock()
			gone, known := c.colls.gone[k]
			c.colls.mu.Unlock()
			if known {
				return gone, nil
			}
			_, err := c.do(ctx, apiRequest{method: http.MethodGet, path: k.collectionPath() + "?limit=1"})
			if err != nil && notFound404(err) == nil {
				return nil, nil // not known
			}
			c.colls.mu.Lock()
			c.colls.gone[k] = err != nil
			c.colls.mu.Unlock()
			return err != nil, nil
		})
		select {
		case r := <-look:
			if gone, known = r.Val.(bool); known || mine {
				return gone, known
			}
		case <-ctx.Done(): // the look goes on for the others
		}
	}
	return false, false
}

// maxAnswerBytes bounds an answer: 30 times the largest page the service
// sends, with room for a plugin's frontend.
const maxAnswerBytes = 16 << 20

const contentTypeJSON = "application/json"

// apiRequest is one API call before it is sent.
type apiRequest struct {
	method              string
	path                string // from /api/..., with its query
	body                []byte // sent whole on every attempt; nil: no body
	contentType, accept string
	target              target // what call resolves a 404 against
}

// apiResponse is a 2xx answer, read whole.
type apiResponse struct {
	status int
	header http.Header
	body   []byte
}

// do sends r with retries and returns its 2xx answer; any other answer is
// an *APIError, no answer a *TransportError.
func (c *Client) do(ctx context.Context, r apiRequest) (*apiResponse, error) {
	ctx = tflog.MaskLogStrings(ctx, c.apiKey) // even within an error's text
	st := &callState{method: r.method, path: r.path, start: c.throttle.Now()}
	ctx = context.WithValue(ctx, callStateKey{}, st)

	var raw any // an untyped nil keeps GETs free of an empty chunked body
	if r.body != nil {
		raw = r.body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, c.base+r.path, raw)
	if err != nil {
		return nil, fmt.Errorf("%s %s: building the request: %w", r.method, r.path, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", cmp.Or(r.accept, contentTypeJSON))
	if r.body != nil {
		req.Header.Set("Content-Type", r.contentType)
	}

	// The final answer's body is read inside the retry loop, so that one cut
	// short meets the retry policy like any other transport error.
	var body []byte
	req.SetResponseHandler(func(resp *http.Response) (err error) {
		body, err = io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
		switch {
		case err != nil:
			st.maybeSent.Store(true)
			return fmt.Errorf("reading the answer: %w", err)
		case len(body) > maxAnswerBytes:
			return &AnswerTooLargeError{Method: r.method, Path: r.path, Limit: maxAnswerBytes}
		}
		return nil
	})

	resp, err := c.retrying(ctx, st).Do(req)
	if resp != nil {
		defer resp.Body.Close()
	}
	if err != nil {
		var closed *throttle.ClosedError
		var big *AnswerTooLargeError
		switch {
		case errors.As(err, &closed): // held back by a pause that ends too late
			return nil, st.throttledError(ctx, closed, nil)
		case errors.As(err, &big): // never retried: the same request brings the same answer
			return nil, big
		case resp != nil && (resp.StatusCode < 400 || resp.StatusCode > 499):
			// The request arrived; only a 4xx proves it was not applied.
			st.maybeSent.Store(true)
		}
		err = plainError(err)
		if ctx.Err() != nil {
			err = context.Cause(ctx) // what ended the call: its time limit (WithTimeLimit) says how to give more
		}
		return nil, &TransportError{Method: r.method, Path: r.path, Attempts: int(st.attempts.Load()),
			MaybeSent: st.maybeSent.Load(), Hint: netHint(err, c.hostPort), Err: err}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := newAPIError(r.method, r.path, resp, body, int(st.attempts.Load()), c.apiKey)
		if st.throttledPast != nil && resp.StatusCode == http.StatusTooManyRequests {
			return nil, st.throttledError(ctx, st.throttledPast, apiErr)
		}
		return nil, apiErr
	}
	return &apiResponse{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

// limitKey holds the error that ends a call's time limit (WithTimeLimit).
type limitKey struct{}

// WithTimeLimit bounds ctx by d, whose end is limit (a context.DeadlineExceeded
// that says what set the limit and how to give more time): the error of a
// call the limit ends is limit, and a *ThrottledError carries it.
func WithTimeLimit(ctx context.Context, d time.Duration, limit error) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(context.WithValue(ctx, limitKey{}, limit), d, limit)
}

// plainError is err without its *url.Error, which repeats the full URL.
func plainError(err error) error {
	var uErr *url.Error
	if errors.As(err, &uErr) {
		return uErr.Err
	}
	return err
}

// decodeError reports a 2xx answer that is not what was expected, and its start.
func (c *Client) decodeError(r apiRequest, resp *apiResponse, err error) error {
	got := "an empty body"
	if len(resp.body) > 0 {
		got = quote(redact(answerLine(string(resp.body)), c.apiKey))
	}
	return fmt.Errorf("%s %s: the %d answer is not the expected JSON (%w); got %s", r.method, r.path, resp.status, err, got)
}

// getJSON GETs path and decodes its answer, a T.
func getJSON[T any](ctx context.Context, c *Client, path string) (*T, error) {
	r := apiRequest{method: http.MethodGet, path: path}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	var v T
	if err := json.Unmarshal(resp.body, &v); err != nil {
		return nil, c.decodeError(r, resp, err)
	}
	return &v, nil
}

// noteRecords learns from records of project whether they come without
// filters or as today's service answers them (posthog.go), and what
// "@current" stands for.
func (c *Client) noteRecords(project string, recs ...Record) {
	for i := range recs {
		if project == CurrentProject && recs[i].TeamID > 0 {
			c.current.id.Store(recs[i].TeamID)
			break
		}
	}
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	for i := range recs {
		if recs[i].FiltersOmitted() {
			c.colls.noFilters = true
		} else if recs[i].ID != 0 {
			c.colls.withFilters = true
		}
		if recs[i].ID != 0 && recs[i].DeliveryRate24h == nil { // not even null: the service since March 2026
			c.colls.noCreates = true
		}
	}
}

// CurrentProject is the address of the API key owner's current project.
const CurrentProject = "@current"

// currentProject is the id "@current" stands for (0: not known yet), as a
// record's team_id told (GET /api/projects/@current/ needs a scope
// plugin-only keys lack); look makes plans waiting for one answer send one request.
type currentProject struct {
	id   atomic.Int64
	look sync.Mutex
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
