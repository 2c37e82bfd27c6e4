package framework

// What every construct tells users about the later service generations
// (the notes' "Service generations"), in one place.

// MovingGuide names the guide that shows how to move off this API.
const MovingGuide = `the guide "Moving to hog functions" (docs/guides/moving-to-hog-functions.md)`

// ServiceGoneHint follows the error of a service that no longer offers the
// API (generation 3): nothing happened, and what to do instead.
const ServiceGoneHint = "Nothing was changed, and the state keeps what it holds. PostHog has removed the legacy " +
	"plugin-config API this provider manages: manage the pipelines as hog functions with the official PostHog " +
	"provider (PostHog/posthog), and take these resources out of Terraform without destroying them with removed " +
	"blocks (lifecycle { destroy = false }) applied with terraform apply -refresh=false; see " + MovingGuide +
	". If host does not point at a PostHog instance, correct it."

// Generation2Since says when the service changed, for messages about
// generation 2.
const Generation2Since = "PostHog since July 2025"
