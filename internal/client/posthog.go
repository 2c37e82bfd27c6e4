package client

import (
	"errors"
	"strings"
)

// What users are told about PostHog: when its versions changed what, what
// its refusals mean, and what to use instead.

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
