package localapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// The organization's plugin listings (the notes' "Finding a plugin"):
// /api/organizations/:organization_id/<listing>/[:id/], where a listing is
// every plugin, or the plugins of one config collection, chosen as that
// collection chooses its configs.
var pluginListings = map[string]string{
	"plugins":                  "",
	"pipeline_transformations": TransformationConfigs,
	"pipeline_import_apps":     ImportAppConfigs,
}

// parseOrganizationRoute reads the parts of a path under
// /api/organizations/ (trailing slash already dropped).
func parseOrganizationRoute(parts []string) route {
	if len(parts) < 4 || len(parts) > 5 || parts[2] == "" {
		return route{}
	}
	if _, ok := pluginListings[parts[3]]; !ok {
		return route{}
	}
	rt := route{kind: routePlugins, org: parts[2], listing: parts[3]}
	if len(parts) == 5 {
		if parts[4] == "" {
			return route{}
		}
		rt.kind, rt.id = routePlugin, parts[4]
	}
	return rt
}

// organization reports whether the route is one of the organization's
// rather than a project's.
func (rt route) organization() bool { return rt.kind == routePlugins || rt.kind == routePlugin }

// resolveOrganization reads the organization_id path segment: @current
// (every key's owner is in the one organization) or its id, a UUID in any
// form Python's UUID() reads. Anything else is 404, as PostHog's routing
// answers an unknown organization and a segment that is not a UUID.
func resolveOrganization(raw string) *apiError {
	if raw == "@current" || uuidHex(raw) == uuidHex(OrganizationID) {
		return nil
	}
	return errNotFound("Organization not found.")
}

// uuidHex is raw as Python's UUID() reads it: without urn:, uuid:, braces
// and hyphens, in lower case; "" when that is not 32 hex digits.
func uuidHex(raw string) string {
	h := strings.ReplaceAll(strings.ReplaceAll(raw, "urn:", ""), "uuid:", "")
	h = strings.ToLower(strings.ReplaceAll(strings.Trim(h, "{}"), "-", ""))
	if len(h) != 32 || strings.Trim(h, "0123456789abcdef") != "" {
		return ""
	}
	return h
}

// listed returns the IDs of the plugins the listing shows, sorted: the
// live listings have no defined order (*choice*: by ID, so that pages
// never repeat or skip a plugin). Every plugin of the catalog is the
// organization's own, so "plugins" shows them all; the others choose as
// their config collections do.
func (c *catalog) listed(listing string) []int64 {
	if coll := pluginListings[listing]; coll != "" {
		return c.collections[coll].ids
	}
	return c.ids
}

// listPlugins answers a page of the route's listing.
func (s *Server) listPlugins(req *request) *apiError {
	ids := req.cat.listed(req.route.listing)
	limit, offset := pageWindow(req.r)
	count := int64(len(ids))
	start := min(offset, count)
	end := start + min(limit, count-start)
	entries := make([]json.RawMessage, 0, end-start)
	for _, id := range ids[start:end] {
		entries = append(entries, req.cat.get(id).listed)
	}
	writeJSON(req.w, http.StatusOK, newPage(req.r, count, limit, offset, entries))
	return nil
}

// retrievePlugin answers the :id plugin if the route's listing shows it;
// an id that is not an integer is 404 too (*choice*: live fails with 500).
func (s *Server) retrievePlugin(req *request) *apiError {
	id, err := strconv.ParseInt(req.route.id, 10, 64)
	if _, found := slices.BinarySearch(req.cat.listed(req.route.listing), id); err != nil || !found {
		return errRecordNotFound()
	}
	writeJSON(req.w, http.StatusOK, req.cat.get(id).listed)
	return nil
}
