package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"

	"golang.org/x/sync/singleflight"
)

// PostHog's versions: what the client learns of the one it talks to, and
// what users are told: when its versions changed what, what its refusals
// mean, and what to use instead.

// MovingGuide names the guide that shows how to move off this API.
const MovingGuide = `the guide "Moving to hog functions" (docs/guides/moving-to-hog-functions.md)`

// Generation2Since says when the service stopped storing new configs
// (PostHog PR #35545), for messages about creates.
const Generation2Since = "PostHog since July 2025"

// FiltersGoneSince says when the service lost filters (PostHog PR #24374),
// which only its version of June to mid-August 2024 had.
const FiltersGoneSince = "PostHog since August 2024"

// JobsGoneSince says when the service lost the job action.
const JobsGoneSince = "PostHog since late 2024"

// ServiceGoneHint follows the error of a service without the API (generation 3).
const ServiceGoneHint = "Nothing was changed, and the state keeps what it holds. PostHog has removed the legacy " +
	"plugin-config API this provider manages: manage the pipelines as hog functions with the official PostHog " +
	"provider (PostHog/posthog), and take these resources out of Terraform without destroying them with removed " +
	"blocks (lifecycle { destroy = false }) applied with terraform apply -refresh=false; see " + MovingGuide +
	". If host does not point at a PostHog instance, correct it."

// ForbiddenHint says what the service's 403 means, by its words, and what
// to do: one explanation, never a generic one beside it.
func ForbiddenHint(err error) string {
	var apiErr *APIError
	_ = errors.As(err, &apiErr)
	detail := strings.ToLower(apiErr.Detail)
	switch {
	case IsProjectScopedKey(err):
		return "This API key is limited to particular projects, and PostHog lets such keys call only project " +
			"routes; this is an organization route. Use a personal API key that is not limited to projects, with " +
			"the plugin:read scope (PostHog: Settings, Personal API keys)."
	case strings.Contains(detail, "missing required scope"):
		return "Give the API key the scope the service names, or use a key that has it (PostHog: Settings, " +
			"Personal API keys): plugin:read to read, plugin:write to change."
	case strings.Contains(detail, "does not have access to the requested project"):
		return "The API key is limited to other projects: use a key that may use this project, or set project_id " +
			"to a project the key may use."
	case IsKeyRefused(err):
		return "PostHog lets no personal API key with scopes call this action: only a browser session in " +
			"PostHog's UI may."
	case strings.Contains(detail, "plugin access level"):
		return "The organization may not use plugins through the API: its plugin access level, which PostHog " +
			"sets, is below what this needs. No API key changes that."
	}
	return "The API key lacks the scope this operation needs (plugin:read to read, plugin:write to change) or " +
		"access to the project."
}

// CustomAction names one of the service's custom actions on a collection,
// which only legacy personal API keys without scopes may call.
type CustomAction string

// The service's custom actions that this provider calls.
const (
	ActionJob      CustomAction = "job"
	ActionFrontend CustomAction = "frontend"
)

// InsteadOf says what to do when the key may not call a custom action.
func InsteadOf(a CustomAction) string {
	const legacy = " A self-hosted instance older than that still lets a legacy key without scopes call it, " +
		"in this provider's configuration or an aliased one used only for it."
	switch a {
	case ActionFrontend:
		return "Open the plugin's page in PostHog's UI to see its frontend." + legacy
	default: // ActionJob
		return "Run the job from the config's page in PostHog's UI." + legacy
	}
}

// collections is what the client learns of the service's collections in
// its life (one Terraform operation), and of which version it is (DESIGN.md,
// "Versions of the service are told apart once"); safe for concurrent use.
type collections struct {
	mu                           sync.Mutex
	gone                         map[target]bool    // whether its API is gone, once a look told
	probes                       singleflight.Group // concurrent 404s share one look
	noFilters                    bool               // records came without filters (C or later)
	withFilters                  bool               // records came with filters (B)
	noCreates                    bool               // a create stored nothing, or records came as today's
	look                         sync.Once          // Learn's one look
	actionsProbe                 sync.Once          // KeyMayCallActions' one look
	actionsAllowed, actionsKnown bool
	jobProbe                     sync.Once // HasJobAction's one look
	jobRoute, jobKnown           bool
	missingActions               map[target]int64 // an action's 404 although this record existed
}

// StoresConfigs reports whether the service stores the configs it is sent
// (records came with filters: version B) or not (a create stored nothing,
// or records came without delivery_rate_24h: E or later), and whether
// either told. Records without filters tell nothing: C and D store configs.
func (c *Client) StoresConfigs() (stores, known bool) {
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	switch {
	case c.colls.noCreates:
		return false, true
	case c.colls.withFilters:
		return true, true
	}
	return false, false
}

// Learn looks at records of project, once in the client's life (the
// service is one version whatever the project), when none came yet: the
// first record of coll, else of the other collection, so that
// StoresConfigs and DropsFilters tell what they can before anything is
// written.
func (c *Client) Learn(ctx context.Context, project string, coll Collection) {
	c.colls.mu.Lock()
	seen := c.colls.noFilters || c.colls.withFilters
	c.colls.mu.Unlock()
	if seen {
		return
	}
	c.colls.look.Do(func() {
		for _, in := range []Collection{coll, coll.other()} {
			if page, err := c.List(ctx, project, in, 1, 0); err != nil || len(page.Results) > 0 {
				return
			}
		}
	})
}

// LearnStoresConfigs is StoresConfigs after Learn.
func (c *Client) LearnStoresConfigs(ctx context.Context, project string, coll Collection) (stores, known bool) {
	if stores, known := c.StoresConfigs(); known {
		return stores, known
	}
	c.Learn(ctx, project, coll)
	return c.StoresConfigs()
}

// DropsFilters reports whether the service answered records without a
// filters field: every version since mid-August 2024 (PostHog PR #24374),
// which ignores filters.
func (c *Client) DropsFilters() bool {
	c.colls.mu.Lock()
	defer c.colls.mu.Unlock()
	return c.colls.noFilters
}

// KeyMayCallActions reports whether the key may call the custom actions
// (the service refuses every key with scopes) and whether one look at the
// frontend of config id told.
func (c *Client) KeyMayCallActions(ctx context.Context, project string, coll Collection, id int64) (may, known bool) {
	c.colls.actionsProbe.Do(func() {
		_, err := c.Frontend(ctx, project, coll, id)
		switch {
		case err == nil:
			c.colls.actionsAllowed, c.colls.actionsKnown = true, true
		case IsKeyRefused(err):
			c.colls.actionsKnown = true
		}
	})
	return c.colls.actionsAllowed, c.colls.actionsKnown
}

// HasJobAction reports whether the service has the job action (versions
// B and C), and whether anything told: what StoresConfigs knows, else one
// GET, once, of the job route of config id, which must exist; the action
// serves only POST, so nothing runs (DESIGN.md, "Versions of the service").
func (c *Client) HasJobAction(ctx context.Context, project string, coll Collection, id int64) (has, known bool) {
	if stores, known := c.StoresConfigs(); known {
		return stores, true // only B's records tell that it stores configs
	}
	c.colls.jobProbe.Do(func() {
		_, err := c.call(ctx, target{project, coll, id, "job"}.request(http.MethodGet))
		switch {
		case IsMissingAction(err) || IsServiceGone(err):
			c.colls.jobKnown = true
		case err == nil, StatusOf(err) == http.StatusMethodNotAllowed || IsKeyRefused(err):
			c.colls.jobRoute, c.colls.jobKnown = true, true
		}
	})
	return c.colls.jobRoute, c.colls.jobKnown
}
