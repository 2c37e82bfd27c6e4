package framework

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client/throttle"
)

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

// serviceGoneHint follows the error of a service without the API (generation 3).
const serviceGoneHint = "Nothing was changed, and the state keeps what it holds. PostHog has removed the legacy " +
	"plugin-config API this provider manages: manage the pipelines as hog functions with the official PostHog " +
	"provider (PostHog/posthog), and take these resources out of Terraform without destroying them with removed " +
	"blocks (lifecycle { destroy = false }) applied with terraform apply -refresh=false; see " + MovingGuide +
	". If host does not point at a PostHog instance, correct it."

// AttrPathFunc maps an API error's attr (e.g. "filters__events__0__type") to
// the schema attribute it concerns, if any.
type AttrPathFunc func(attr string) (path.Path, bool)

// AddAPIError adds err to diags with summary, on the attribute the service
// named when attrPath knows it, so that Terraform points at the line.
func AddAPIError(diags *diag.Diagnostics, summary string, err error, attrPath AttrPathFunc) {
	detail := DescribeError(err)
	var apiErr *client.APIError
	if errors.As(err, &apiErr) && apiErr.Attr != "" && attrPath != nil {
		if p, ok := attrPath(apiErr.Attr); ok {
			diags.AddAttributeError(p, summary, detail)
			return
		}
	}
	diags.AddError(summary, detail)
}

// DescribeError renders err for a diagnostic's detail: what was called, the
// status, what the service said, and a hint for the usual causes.
func DescribeError(err error) string {
	var thrErr *client.ThrottledError
	if errors.As(err, &thrErr) {
		return err.Error() + "\n\n" + throttledHint(thrErr.Until, thrErr.Wait, thrErr.Limit)
	}
	if client.IsServiceGone(err) {
		return err.Error() + ".\n\n" + serviceGoneHint
	}
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) {
		return err.Error() + waitHint(err)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%s %s answered %d %s.", apiErr.Method, apiErr.Path, apiErr.Status, http.StatusText(apiErr.Status))
	if apiErr.Detail != "" {
		fmt.Fprintf(&b, "\n\nService detail: %s", apiErr.Detail)
	}
	if apiErr.Attr != "" {
		fmt.Fprintf(&b, "\nAttribute: %s", apiErr.Attr)
	}
	if apiErr.Code != "" || apiErr.Type != "" {
		fmt.Fprintf(&b, "\nError code: %s (%s)", apiErr.Code, apiErr.Type)
	}
	switch apiErr.Status {
	case http.StatusUnauthorized:
		b.WriteString("\n\nCheck the provider's api_key (or POSTHOG_API_KEY).")
	case http.StatusForbidden:
		b.WriteString("\n\n" + forbiddenHint(err))
	case http.StatusTooManyRequests:
		wait := time.Duration(apiErr.RetryAfter) * time.Second
		b.WriteString("\n\n" + throttledHint(time.Now().Add(wait), wait, nil))
	}
	return b.String()
}

// forbiddenHint says what the service's 403 means, by its words, and what
// to do: one explanation, never a generic one beside it.
func forbiddenHint(err error) string {
	var apiErr *client.APIError
	_ = errors.As(err, &apiErr)
	detail := strings.ToLower(apiErr.Detail)
	switch {
	case client.IsProjectScopedKey(err):
		return "This API key is limited to particular projects, and PostHog lets such keys call only project " +
			"routes; this is an organization route. Use a personal API key that is not limited to projects, with " +
			"the plugin:read scope (PostHog: Settings, Personal API keys)."
	case strings.Contains(detail, "missing required scope"):
		return "Give the API key the scope the service names, or use a key that has it (PostHog: Settings, " +
			"Personal API keys): plugin:read to read, plugin:write to change."
	case strings.Contains(detail, "does not have access to the requested project"):
		return "The API key is limited to other projects: use a key that may use this project, or set project_id " +
			"to a project the key may use."
	case client.IsKeyRefused(err):
		return "PostHog lets no personal API key with scopes call this action: only a browser session in " +
			"PostHog's UI may."
	case strings.Contains(detail, "plugin access level"):
		return "The organization may not use plugins through the API: its plugin access level, which PostHog " +
			"sets, is below what this needs. No API key changes that."
	}
	return "The API key lacks the scope this operation needs (plugin:read to read, plugin:write to change) or " +
		"access to the project."
}

// throttledHint says what to do when a throttle outlasts the time limit of
// an operation (limit, a *TimeLimitError, tells which; nil when unknown).
func throttledHint(until time.Time, wait time.Duration, limit error) string {
	more := "."
	var l *TimeLimitError
	if errors.As(limit, &l) {
		more = " (" + l.more() + ")."
		if l.Settable {
			more = ", or give the operation more than " + throttle.RoundWait(wait).String() + " with the resource's " +
				"timeouts block (the service's hourly limit asks for waits of up to an hour)."
		}
	}
	return "Run again after " + until.UTC().Format("2006-01-02 15:04:05 UTC") + more + " If other jobs or people " +
		"use the same API key, give this run a key of its own, or lower requests_per_minute in each of them so " +
		"that together they stay under the service's limit."
}

// waitHint says what to do about a request that waited too long, as
// the construct allows; "" for another failure.
func waitHint(err error) string {
	var limit *TimeLimitError
	switch {
	case errors.As(err, new(*client.AttemptTimeoutError)) || errors.As(err, new(*client.SilentHostError)):
		return "\n\nThe service did not answer in time. Check that host names a PostHog instance that is up and " +
			"reachable from here: a firewall that drops packets, or a proxy that accepts connections and never " +
			"answers, looks like this. If the service is only slow, raise the provider's request_timeout."
	case errors.As(err, &limit):
		return "\n\nThe operation ran out of time: " + limit.more() + ". Check that the service answers, and " +
			"run again."
	case errors.Is(err, context.DeadlineExceeded):
		return "\n\nThe operation ran out of time: check that the service answers, and run again."
	}
	return ""
}

// CustomAction names one of the service's custom actions on a collection,
// which only legacy personal API keys without scopes may call.
type CustomAction string

// The service's custom actions that this provider calls.
const (
	ActionJob      CustomAction = "job"
	ActionFrontend CustomAction = "frontend"
)

// AddCustomActionError reports a failed custom action: for a key the
// service refused, why and what to do instead; else the usual API error.
func AddCustomActionError(diags *diag.Diagnostics, summary string, a CustomAction, err error, attrPath AttrPathFunc) {
	if !client.IsKeyRefused(err) {
		AddAPIError(diags, summary, err, attrPath)
		return
	}
	var apiErr *client.APIError
	_ = errors.As(err, &apiErr)
	diags.AddError(summary, fmt.Sprintf("%s %s answered 403 Forbidden: %q.\n\n"+
		"The service lets no personal API key with scopes call %s, and since March 2026 PostHog gives every "+
		"personal API key scopes (keys created without any got \"*\"): only a browser session in PostHog's UI "+
		"may call it. %s",
		apiErr.Method, apiErr.Path, apiErr.Detail, a, insteadOf(a)))
}

// RefuseKeyAtPlan refuses at plan time a custom action the service would
// refuse this key (client.KeyMayCallActions); it reports whether it refused.
func RefuseKeyAtPlan(ctx context.Context, meta *ProviderData, project string, coll client.Collection, id int64, a CustomAction,
	attr path.Path, diags *diag.Diagnostics,
) bool {
	if may, known := meta.Client.KeyMayCallActions(ctx, project, coll, id); may || !known {
		return false
	}
	diags.AddAttributeError(attr, fmt.Sprintf("This API key may not call %s", a), fmt.Sprintf(
		"The service lets no personal API key with scopes call %s, and since March 2026 PostHog gives every personal "+
			"API key scopes: only a browser session in PostHog's UI may. Nothing was sent. %s", a, insteadOf(a)))
	return true
}

// insteadOf says what to do when the key may not call a custom action.
func insteadOf(a CustomAction) string {
	const legacy = " A self-hosted instance older than that still lets a legacy key without scopes call it, " +
		"in this provider's configuration or an aliased one used only for it."
	switch a {
	case ActionFrontend:
		return "Open the plugin's page in PostHog's UI to see its frontend." + legacy
	default: // ActionJob
		return "Run the job from the config's page in PostHog's UI." + legacy
	}
}
