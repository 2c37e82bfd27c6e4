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

// hogScope is the scope a hog function operation needs (PostHog's
// scope_object "hog_function"); ok is false for other operations.
func hogScope(op string) (scope string, ok bool) {
	switch op {
	case opHogList, opHogRetrieve:
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
// not deleted, narrowed by type (a comma-separated list) and enabled, in
// the minimal serializer's fields, ordered by execution_order then the
// newest update.
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
	limit, offset := pageWindow(req.r)
	hfs, count, err := s.store.hogFunctionPage(req.ctx, req.project, f, limit, offset)
	if err != nil {
		return s.internal(req, err)
	}
	views := make([]*hogFunctionListView, len(hfs))
	for i := range hfs {
		views[i] = hfs[i].listView(req.cat)
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

// createHogFunctionFromAPI makes a hog function, from the template
// template_id names (which gives the code, the inputs_schema, and the
// name and description the body leaves out) or of its own code.
func (s *Server) createHogFunctionFromAPI(req *request) *apiError {
	b, obj, e := hogBody(req)
	if e != nil {
		return e
	}
	var tpl *catalogEntry
	templateID := ""
	if v, ok := b.field(obj, "template_id"); ok && v != nil {
		templateID = pyStr(v)
		if tpl = req.cat.template(templateID); tpl == nil && templateID != "" {
			return errInvalid(fmt.Sprintf("No template found for id '%s'", templateID), "template_id")
		}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return s.internal(req, err)
	}
	now := time.Now().UTC()
	hf := &HogFunction{ID: id.String(), Project: req.project, Type: "destination", TemplateID: templateID,
		Inputs: []byte(`{}`), Filters: []byte(`{}`), CreatedAt: now, UpdatedAt: now}
	if tpl != nil {
		hf.Plugin = tpl.ID
	}
	sent, e := applyHogBody(b, obj, hf, req.cat, tpl, true)
	if e != nil {
		return e
	}
	err = s.store.write(req.ctx, func(tx *storeTx) error {
		if err := settleHogFunction(tx, nil, hf, sent); err != nil {
			return err
		}
		return tx.addHogFunction(hf)
	})
	if err != nil {
		return s.failed(req, err)
	}
	writeJSON(req.w, http.StatusCreated, hf.apiView(req.cat))
	return nil
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
	writeJSON(req.w, http.StatusOK, hf.apiView(req.cat))
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
		sent, e := applyHogBody(b, obj, found, req.cat, nil, false)
		if e != nil {
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
	writeJSON(req.w, http.StatusOK, hf.apiView(req.cat))
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
			return errInvalid(fmt.Sprintf("Maximum of %d enabled transformation functions allowed per team. Please contact support if you need this limit increased, or disable some existing transformations.",
				maxTransformationsPerTeam), "type")
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
// local API keeps no user, compiles no Hog and has no masking or mappings
// (*choice*): created_by, bytecode, transpiled, masking and mappings are
// null.
type hogFunctionAPIView struct {
	ID             string           `json:"id"`
	Type           string           `json:"type"`
	Name           string           `json:"name"`
	Description    string           `json:"description"`
	CreatedAt      string           `json:"created_at"`
	CreatedBy      *struct{}        `json:"created_by"`
	UpdatedAt      string           `json:"updated_at"`
	Enabled        bool             `json:"enabled"`
	Hog            string           `json:"hog"`
	Bytecode       *struct{}        `json:"bytecode"`
	Transpiled     *struct{}        `json:"transpiled"`
	InputsSchema   json.RawMessage  `json:"inputs_schema"`
	Inputs         json.RawMessage  `json:"inputs"`
	Filters        json.RawMessage  `json:"filters"`
	Masking        *struct{}        `json:"masking"`
	Mappings       *struct{}        `json:"mappings"`
	IconURL        *string          `json:"icon_url"`
	Template       *hogTemplateView `json:"template"`
	Status         hogStatus        `json:"status"`
	ExecutionOrder *int64           `json:"execution_order"`
}

// hogFunctionListView is a hog function in a list page
// (HogFunctionMinimalSerializer).
type hogFunctionListView struct {
	ID             string           `json:"id"`
	Type           string           `json:"type"`
	Name           string           `json:"name"`
	Description    string           `json:"description"`
	CreatedAt      string           `json:"created_at"`
	CreatedBy      *struct{}        `json:"created_by"`
	UpdatedAt      string           `json:"updated_at"`
	Enabled        bool             `json:"enabled"`
	Hog            string           `json:"hog"`
	Filters        json.RawMessage  `json:"filters"`
	IconURL        *string          `json:"icon_url"`
	Template       *hogTemplateView `json:"template"`
	Status         hogStatus        `json:"status"`
	ExecutionOrder *int64           `json:"execution_order"`
}

func (hf *HogFunction) apiView(cat *catalog) *hogFunctionAPIView {
	l := hf.listView(cat)
	return &hogFunctionAPIView{ID: l.ID, Type: l.Type, Name: l.Name, Description: l.Description, CreatedAt: l.CreatedAt,
		UpdatedAt: l.UpdatedAt, Enabled: l.Enabled, Hog: l.Hog, InputsSchema: hf.schemaJSON(cat), Inputs: hf.maskedInputs(cat),
		Filters: l.Filters, IconURL: l.IconURL, Template: l.Template, ExecutionOrder: l.ExecutionOrder}
}

func (hf *HogFunction) listView(cat *catalog) *hogFunctionListView {
	v := &hogFunctionListView{ID: hf.ID, Type: hf.Type, Name: hf.Name, Description: hf.Description,
		CreatedAt: formatTime(hf.CreatedAt.UnixMicro()), UpdatedAt: formatTime(hf.UpdatedAt.UnixMicro()),
		Enabled: hf.Enabled, Hog: hf.hog(cat), Filters: hf.Filters, ExecutionOrder: hf.ExecutionOrder}
	if p := hf.templateOf(cat); p != nil && hf.TemplateID != "" {
		v.Template, v.IconURL = p.templateView(), nonEmpty(p.Icon)
	}
	return v
}
