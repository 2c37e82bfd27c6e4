package localapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
)

// The hog function API the official PostHog provider calls
// (PostHog/terraform-provider-posthog, internal/httpclient/hog_function.go),
// as PostHog serves it (posthog/api/hog_function.py, HogFunctionViewSet):
// /api/projects/:project_id/hog_functions/[:id/], also under
// /api/environments/ (where the official provider calls it), trailing
// slash optional. Every generation serves it: the plugin API's removal
// leaves hog functions alone.

// The hog function routes.
const (
	routeHogFunctions routeKind = 100 + iota // the collection
	routeHogFunction                         // one hog function
)

// The hog function operations (counted under these names).
const (
	opHogList     = "hog_function_list"
	opHogCreate   = "hog_function_create"
	opHogRetrieve = "hog_function_retrieve"
	opHogUpdate   = "hog_function_update"
	opHogDelete   = "hog_function_delete"
)

// parseHogFunctionRoute reads /api/projects|environments/:project_id/
// hog_functions/[:id] (trailing slash already dropped); ok is false for
// any other path.
func parseHogFunctionRoute(parts []string) (rt route, ok bool) {
	if len(parts) < 4 || len(parts) > 5 || parts[0] != "api" || (parts[1] != "projects" && parts[1] != "environments") ||
		parts[2] == "" || parts[3] != "hog_functions" {
		return route{}, false
	}
	if len(parts) == 4 {
		return route{kind: routeHogFunctions, project: parts[2]}, true
	}
	if parts[4] == "" {
		return route{}, true
	}
	return route{kind: routeHogFunction, project: parts[2], id: parts[4]}, true
}

// isHogFunction reports whether the route is one of the hog function API.
func (rt route) isHogFunction() bool {
	return rt.kind == routeHogFunctions || rt.kind == routeHogFunction
}

// hogOperation names what method does on a hog function route; allowed is
// false for a method the route does not serve.
func (rt route) hogOperation(method string) (op string, allowed bool) {
	get := method == http.MethodGet || method == http.MethodHead
	switch {
	case rt.kind == routeHogFunctions && get:
		return opHogList, true
	case rt.kind == routeHogFunctions && method == http.MethodPost:
		return opHogCreate, true
	case rt.kind == routeHogFunction && get:
		return opHogRetrieve, true
	case rt.kind == routeHogFunction && (method == http.MethodPatch || method == http.MethodPut):
		return opHogUpdate, true
	case rt.kind == routeHogFunction && method == http.MethodDelete:
		return opHogDelete, true
	}
	return opOther, false
}

// hogScope is the scope a hog function or template operation needs
// (PostHog's scope_object "hog_function" on both); ok is false for other
// operations.
func hogScope(op string) (scope string, ok bool) {
	switch op {
	case opHogList, opHogRetrieve, opTemplateList, opTemplateRetrieve:
		return "hog_function:read", true
	case opHogCreate, opHogUpdate, opHogDelete:
		return "hog_function:write", true
	}
	return "", false
}

// serveHogFunction runs a hog function operation.
func (s *Server) serveHogFunction(req *request, op string) *apiError {
	switch op {
	case opHogList:
		return s.listHogFunctions(req)
	case opHogCreate:
		return s.createHogFunctionFromAPI(req)
	case opHogRetrieve:
		return s.retrieveHogFunction(req)
	case opHogUpdate:
		return s.updateHogFunction(req)
	}
	// DELETE: ForbidDestroyModel answers 405 without a body; a hog function
	// is deleted with PATCH {"deleted": true}.
	req.w.Header().Set("Content-Length", "0")
	req.w.WriteHeader(http.StatusMethodNotAllowed)
	return nil
}

// listHogFunctions answers a page of the project's hog functions that are
// not deleted, narrowed as PostHog's HogFunctionFilterSet narrows them: by
// type (a comma-separated list), enabled and id, in the minimal
// serializer's fields (full=true: every field), ordered by execution_order
// then the newest update. The other filters (search, filters,
// filter_groups, created_at, ...) are not modelled (*choice*): a client
// finds the functions of a template by their template's id.
func (s *Server) listHogFunctions(req *request) *apiError {
	q := req.r.URL.Query()
	var f hogFilter
	if t := lastValue(q, "type"); t != "" {
		f.types = strings.Split(t, ",")
	}
	if e := lastValue(q, "enabled"); trueStrings[e] || falseStrings[e] {
		on := trueStrings[e]
		f.enabled = &on
	}
	if id := lastValue(q, "id"); id != "" {
		if f.id = canonicalUUID(id); f.id == "" {
			return errValidation("invalid", "Enter a valid UUID.", "id")
		}
	}
	limit, offset := pageWindow(req.r)
	hfs, count, err := s.store.hogFunctionPage(req.ctx, req.project, f, limit, offset)
	if err != nil {
		return s.internal(req, err)
	}
	full := lastValue(q, "full") == "true"
	views := make([]any, len(hfs))
	for i := range hfs {
		if full {
			views[i] = hfs[i].apiView()
		} else {
			views[i] = hfs[i].listView()
		}
	}
	writeJSON(req.w, http.StatusOK, newPage(req.r, count, limit, offset, views))
	return nil
}

// hogBody reads a create or update body: JSON (an object) or a form.
func hogBody(req *request) (*body, map[string]any, *apiError) {
	b, e := readBody(req.w, req.r)
	if e != nil {
		return nil, nil, e
	}
	if b.isForm() {
		return b, nil, nil
	}
	obj, e := b.object()
	return b, obj, e
}

// newHogFunction reads the body of a new hog function of project as w
// says (w.tpl is found here) and returns the function, not yet stored:
// first the template its template_id names (unknown: refused; hidden:
// refused by today's service under w.defaults, PostHog's newest source),
// then the fields (applyHogBody).
func newHogFunction(b *body, obj map[string]any, project int64, w hogWrite, today bool) (*HogFunction, *hogSent, *apiError) {
	templateID := ""
	if v, ok := b.field(obj, "template_id"); ok && v != nil {
		templateID = pyStr(v)
	}
	if templateID != "" {
		if w.tpl = hogTemplates.get(templateID); w.tpl == nil {
			return nil, nil, errInvalid(fmt.Sprintf("No template found for id '%s'", templateID), "template_id")
		}
		if w.defaults && today && w.tpl.Status == "hidden" {
			return nil, nil, errInvalid(fmt.Sprintf("Template '%s' is internal and cannot be used to create a function.", templateID), "template_id")
		}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, nil, errServer()
	}
	now := time.Now().UTC()
	hf := &HogFunction{ID: id.String(), Project: project, Type: "destination", TemplateID: templateID,
		Inputs: []byte(`{}`), Filters: []byte(`{}`), CreatedAt: now, UpdatedAt: now}
	sent, e := applyHogBody(b, obj, hf, w)
	if e != nil {
		return nil, nil, e
	}
	return hf, sent, nil
}

// createHogFunctionFromAPI makes a hog function, from the template
// template_id names (which gives the code, the inputs_schema, the icon,
// and the name and description the body leaves out) or of its own code.
func (s *Server) createHogFunctionFromAPI(req *request) *apiError {
	b, obj, e := hogBody(req)
	if e != nil {
		return e
	}
	hf, sent, e := newHogFunction(b, obj, req.project, hogWrite{defaults: true}, req.svc.isToday())
	if e != nil {
		return e
	}
	err := s.store.write(req.ctx, func(tx *storeTx) error { return addHogFunction(tx, hf, sent) })
	if err != nil {
		return s.failed(req, err)
	}
	writeJSON(req.w, http.StatusCreated, hf.apiView())
	return nil
}

// addHogFunction stores a new hog function as PostHog's serializer does:
// settled (settleHogFunction), then saved.
func addHogFunction(tx *storeTx, hf *HogFunction, sent *hogSent) error {
	if err := settleHogFunction(tx, nil, hf, sent); err != nil {
		return err
	}
	return tx.addHogFunction(hf)
}

// retrieveHogFunction answers one hog function; a deleted one is 404.
func (s *Server) retrieveHogFunction(req *request) *apiError {
	id := canonicalUUID(req.route.id)
	if id == "" {
		return errRecordNotFound()
	}
	hf, err := s.store.findHogFunction(req.ctx, req.project, id)
	switch {
	case err != nil:
		return s.internal(req, err)
	case hf == nil || hf.Deleted:
		return errRecordNotFound()
	}
	writeJSON(req.w, http.StatusOK, hf.apiView())
	return nil
}

// updateHogFunction changes a hog function (PATCH, and PUT alike:
// *choice*). {"deleted": true} is PostHog's delete; a deleted function is
// found only by a PATCH whose JSON body says "deleted": false.
func (s *Server) updateHogFunction(req *request) *apiError {
	b, obj, e := hogBody(req)
	if e != nil {
		return e
	}
	id := canonicalUUID(req.route.id)
	undelete := req.r.Method == http.MethodPatch && obj["deleted"] == false
	var hf *HogFunction
	err := s.store.write(req.ctx, func(tx *storeTx) error {
		found, err := tx.hogFunction(req.project, id)
		switch {
		case err != nil:
			return err
		case found == nil || (found.Deleted && !undelete):
			return errRecordNotFound()
		}
		before := *found
		sent, e := applyHogBody(b, obj, found, hogWrite{update: true})
		if e != nil {
			return e
		}
		if e := hiddenKeptEnabled(found, sent, req.svc.isToday()); e != nil {
			return e
		}
		if err := settleHogFunction(tx, &before, found, sent); err != nil {
			return err
		}
		hf = found
		return tx.saveHogFunction(found)
	})
	if err != nil {
		return s.failed(req, err)
	}
	writeJSON(req.w, http.StatusOK, hf.apiView())
	return nil
}

// hiddenKeptEnabled is today's refusal of an update that leaves a function
// made from a hidden template enabled (PostHog's newest source: it may
// only be disabled or deleted).
func hiddenKeptEnabled(hf *HogFunction, sent *hogSent, today bool) *apiError {
	if !today || !hf.Enabled || sent.deleted != nil && *sent.deleted {
		return nil
	}
	if t := hf.template(); t != nil && t.Status == "hidden" {
		return errInvalid("This function was created from an internal template and can only be disabled or deleted, not kept enabled.", "enabled")
	}
	return nil
}

// settleHogFunction does what PostHog does beyond storing a write of hf
// (before is nil for a create): it refuses to enable a transformation past
// the project's limit, and puts a transformation created without an
// execution_order, undeleted, or enabled without one, after the others.
func settleHogFunction(tx *storeTx, before, hf *HogFunction, sent *hogSent) error {
	if hf.Type != "transformation" {
		return nil
	}
	enabling := sent.enabled != nil && *sent.enabled
	if enabling && (before == nil || !before.Enabled) {
		n, err := tx.enabledTransformations(hf.Project)
		if err != nil {
			return err
		}
		if n >= maxTransformationsPerTeam {
			return errTransformationLimit()
		}
	}
	last := hf.ExecutionOrder == nil
	if before != nil {
		undeleted := before.Deleted && sent.deleted != nil && !*sent.deleted
		last = undeleted || (!before.Enabled && enabling && !sent.order)
	}
	if last {
		highest, err := tx.maxTransformationOrder(hf.Project)
		if err != nil {
			return err
		}
		order := highest + 1
		hf.ExecutionOrder = &order
	}
	return nil
}

// hogStatus is a function's status as PostHog shows it while it has none
// from the plugin server.
type hogStatus struct {
	State  int `json:"state"`
	Tokens int `json:"tokens"`
}

// hogFunctionAPIView is a hog function as HogFunctionSerializer answers it,
// in its fields and order (template_id and deleted are write-only). The
// local API keeps no user and compiles no code (*choice*): created_by,
// bytecode, transpiled are null, as are masking and mappings (sent ones
// are ignored); search_match_type, batch_export_id and _create_in_folder
// are left out.
type hogFunctionAPIView struct {
	ID             string          `json:"id"`
	Type           string          `json:"type"`
	Name           string          `json:"name"`
	Description    string          `json:"description"`
	CreatedAt      string          `json:"created_at"`
	CreatedBy      *struct{}       `json:"created_by"`
	UpdatedAt      string          `json:"updated_at"`
	Enabled        bool            `json:"enabled"`
	Hog            string          `json:"hog"`
	Bytecode       *struct{}       `json:"bytecode"`
	Transpiled     *struct{}       `json:"transpiled"`
	InputsSchema   json.RawMessage `json:"inputs_schema"`
	Inputs         json.RawMessage `json:"inputs"`
	Filters        json.RawMessage `json:"filters"`
	Masking        *struct{}       `json:"masking"`
	Mappings       *struct{}       `json:"mappings"`
	IconURL        *string         `json:"icon_url"`
	Template       *hogTemplate    `json:"template"`
	Status         hogStatus       `json:"status"`
	ExecutionOrder *int64          `json:"execution_order"`
}

// hogFunctionListView is a hog function in a list page
// (HogFunctionMinimalSerializer).
type hogFunctionListView struct {
	ID             string          `json:"id"`
	Type           string          `json:"type"`
	Name           string          `json:"name"`
	Description    string          `json:"description"`
	CreatedAt      string          `json:"created_at"`
	CreatedBy      *struct{}       `json:"created_by"`
	UpdatedAt      string          `json:"updated_at"`
	Enabled        bool            `json:"enabled"`
	Hog            string          `json:"hog"`
	Filters        json.RawMessage `json:"filters"`
	IconURL        *string         `json:"icon_url"`
	Template       *hogTemplate    `json:"template"`
	Status         hogStatus       `json:"status"`
	ExecutionOrder *int64          `json:"execution_order"`
}

func (hf *HogFunction) apiView() *hogFunctionAPIView {
	l := hf.listView()
	return &hogFunctionAPIView{ID: l.ID, Type: l.Type, Name: l.Name, Description: l.Description, CreatedAt: l.CreatedAt,
		UpdatedAt: l.UpdatedAt, Enabled: l.Enabled, Hog: l.Hog, InputsSchema: hf.schemaJSON(), Inputs: hf.maskedInputs(),
		Filters: l.Filters, IconURL: l.IconURL, Template: l.Template, ExecutionOrder: l.ExecutionOrder}
}

func (hf *HogFunction) listView() *hogFunctionListView {
	return &hogFunctionListView{ID: hf.ID, Type: hf.Type, Name: hf.Name, Description: hf.Description,
		CreatedAt: formatTime(hf.CreatedAt.UnixMicro()), UpdatedAt: formatTime(hf.UpdatedAt.UnixMicro()),
		Enabled: hf.Enabled, Hog: hf.hog(), Filters: hf.Filters, IconURL: hf.IconURL, Template: hf.template(),
		ExecutionOrder: hf.ExecutionOrder}
}

// errTransformationLimit refuses one enabled transformation too many.
func errTransformationLimit() *apiError {
	return errInvalid(fmt.Sprintf("Maximum of %d enabled transformation functions allowed per team. Please contact support if you need this limit increased, or disable some existing transformations.",
		maxTransformationsPerTeam), "type")
}
