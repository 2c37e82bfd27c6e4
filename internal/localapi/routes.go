package localapi

import (
	"net/http"
	"strings"
)

// Operation names, used for counters and permission checks.
const (
	opList      = "list"
	opCreate    = "create"
	opRetrieve  = "retrieve"
	opUpdate    = "update"
	opDelete    = "delete"
	opFrontend  = "frontend"
	opJob       = "job"
	opRearrange = "rearrange"
	opMigrate   = "migrate"
	opActivity  = "activity"
	// The organization's plugin listings: a page, and one plugin.
	opPluginList     = "plugin_list"
	opPluginRetrieve = "plugin_retrieve"
	// opOther is a request no operation serves: an unknown path or a
	// method the path does not allow.
	opOther = "other"
)

type routeKind int

const (
	routeNone routeKind = iota
	routeCollection
	routeDetail
	routeFrontend
	routeJob
	routeRearrange
	routeMigrate
	routeActivity
	routePlugins // an organization's plugin listing
	routePlugin  // one plugin of it
)

// route is a parsed request path:
// /api/projects/:project_id/<collection>/[rearrange/ | :id/[frontend/ | job/
// | migrate/ | activity/]], or /api/organizations/:organization_id/<plugin
// listing>/[:id/] (organization.go), with the trailing slash optional, as on
// the live service. Which of them a generation serves is servedIn's
// business.
type route struct {
	kind    routeKind
	project string // raw path segment: an integer or @current
	coll    *collection
	id      string // raw path segment
	org     string // raw path segment: a UUID or @current
	listing string // a key of pluginListings
}

func parseRoute(cat *catalog, path string) route {
	path = strings.TrimSuffix(path, "/")
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if rt, ok := parseHogFunctionRoute(parts); ok {
		return rt
	}
	if rt, ok := parseTemplateRoute(parts); ok {
		return rt
	}
	if len(parts) > 1 && parts[0] == "api" && parts[1] == "organizations" {
		return parseOrganizationRoute(parts)
	}
	if len(parts) < 4 || len(parts) > 6 || parts[0] != "api" || parts[1] != "projects" || parts[2] == "" {
		return route{}
	}
	coll := cat.collections[parts[3]]
	if coll == nil {
		return route{}
	}
	rt := route{project: parts[2], coll: coll}
	switch {
	case len(parts) == 4:
		rt.kind = routeCollection
	case len(parts) == 5 && parts[4] == "rearrange":
		rt.kind = routeRearrange
	case parts[4] == "":
		return route{}
	case len(parts) == 5:
		rt.kind, rt.id = routeDetail, parts[4]
	case parts[5] == "frontend":
		rt.kind, rt.id = routeFrontend, parts[4]
	case parts[5] == "job":
		rt.kind, rt.id = routeJob, parts[4]
	case parts[5] == "migrate":
		rt.kind, rt.id = routeMigrate, parts[4]
	case parts[5] == "activity":
		rt.kind, rt.id = routeActivity, parts[4]
	default:
		return route{}
	}
	return rt
}

// operation names what method does on the route; allowed is false for a
// method the route does not serve (405, or 403 for a scoped key).
func (rt route) operation(method string) (op string, allowed bool) {
	if rt.isHogFunction() {
		return rt.hogOperation(method)
	}
	if rt.isTemplate() {
		return rt.templateOperation(method)
	}
	get := method == http.MethodGet || method == http.MethodHead
	switch {
	case rt.kind == routeCollection && get:
		return opList, true
	case rt.kind == routeCollection && method == http.MethodPost:
		return opCreate, true
	case rt.kind == routeDetail && get:
		return opRetrieve, true
	case rt.kind == routeDetail && (method == http.MethodPatch || method == http.MethodPut):
		return opUpdate, true
	case rt.kind == routeDetail && method == http.MethodDelete:
		return opDelete, true
	case rt.kind == routeFrontend && get:
		return opFrontend, true
	case rt.kind == routeJob && method == http.MethodPost:
		return opJob, true
	case rt.kind == routeRearrange && method == http.MethodPatch:
		return opRearrange, true
	case rt.kind == routeMigrate && method == http.MethodPost:
		return opMigrate, true
	case rt.kind == routeActivity && get:
		return opActivity, true
	case rt.kind == routePlugins && get:
		return opPluginList, true
	case rt.kind == routePlugin && get:
		return opPluginRetrieve, true
	}
	return opOther, false
}

// requiredScope is the scope an operation needs; "" means personal API keys
// with scopes may not call it at all (the live custom actions).
func requiredScope(op string) string {
	if scope, ok := hogScope(op); ok {
		return scope
	}
	switch op {
	case opList, opRetrieve, opPluginList, opPluginRetrieve:
		return "plugin:read"
	case opCreate, opUpdate, opDelete:
		return "plugin:write"
	}
	return ""
}
