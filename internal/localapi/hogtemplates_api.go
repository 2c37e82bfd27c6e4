package localapi

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
)

// The templates API, as PostHog serves it
// (products/cdp/backend/api/hog_function_template.py,
// PublicHogFunctionTemplateViewSet): GET
// /api/projects/:project_id/hog_function_templates/[:template_id/], a list
// and a retrieve, mounted under /api/projects/ only, trailing slash
// optional, @current as everywhere. Every generation serves it.

// The template routes.
const (
	routeHogTemplates routeKind = 200 + iota // the list
	routeHogTemplate                         // one template
)

// The template operations (counted under these names).
const (
	opTemplateList     = "hog_function_template_list"
	opTemplateRetrieve = "hog_function_template_retrieve"
)

// parseTemplateRoute reads /api/projects/:project_id/hog_function_templates/
// [:template_id] (trailing slash already dropped); ok is false for any
// other path.
func parseTemplateRoute(parts []string) (rt route, ok bool) {
	if len(parts) < 4 || len(parts) > 5 || parts[0] != "api" || parts[1] != "projects" || parts[2] == "" ||
		parts[3] != "hog_function_templates" {
		return route{}, false
	}
	if len(parts) == 4 {
		return route{kind: routeHogTemplates, project: parts[2]}, true
	}
	if parts[4] == "" {
		return route{}, true
	}
	return route{kind: routeHogTemplate, project: parts[2], id: parts[4]}, true
}

// isTemplate reports whether the route is one of the templates API.
func (rt route) isTemplate() bool { return rt.kind == routeHogTemplates || rt.kind == routeHogTemplate }

// templateOperation names what method does on a template route; allowed is
// false for a method the route does not serve (the viewset lists and
// retrieves only).
func (rt route) templateOperation(method string) (op string, allowed bool) {
	if method != http.MethodGet && method != http.MethodHead {
		return opOther, false
	}
	if rt.kind == routeHogTemplates {
		return opTemplateList, true
	}
	return opTemplateRetrieve, true
}

// listTemplates answers a page of the templates of the types asked for:
// type=X, else types=X,Y, else destinations only; template_id= narrows to
// one id; deprecated templates never show (hidden ones do: the project's
// mount keeps them). PostHog pages the catalog in its table's order, then
// sorts each page by how many enabled functions use each template (every
// project's), then by name without case.
func (s *Server) listTemplates(req *request) *apiError {
	q := req.r.URL.Query()
	types := []string{"destination"}
	if t := q.Get("type"); t != "" {
		types = []string{t}
	} else if t := q.Get("types"); t != "" {
		types = strings.Split(t, ",")
	}
	id := q.Get("template_id")
	var shown []*hogTemplate
	for _, t := range hogTemplates.all {
		if slices.Contains(types, t.Type) && (id == "" || t.ID == id) && t.Status != "deprecated" {
			shown = append(shown, t)
		}
	}
	limit, offset := pageWindow(req.r)
	count := int64(len(shown))
	start := min(offset, count)
	page := append([]*hogTemplate{}, shown[start:start+min(limit, count-start)]...)
	usage, err := s.store.templateUsage(req.ctx)
	if err != nil {
		return s.internal(req, err)
	}
	slices.SortStableFunc(page, func(a, b *hogTemplate) int {
		return cmp.Or(cmp.Compare(usage[b.ID], usage[a.ID]), cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)))
	})
	writeJSON(req.w, http.StatusOK, newPage(req.r, count, limit, offset, page))
	return nil
}

// retrieveTemplate answers one template, whatever its status.
func (s *Server) retrieveTemplate(req *request) *apiError {
	t := hogTemplates.get(req.route.id)
	if t == nil {
		return errRecordNotFound()
	}
	writeJSON(req.w, http.StatusOK, t)
	return nil
}
