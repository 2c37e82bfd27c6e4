package framework

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// CustomAction names one of the service's custom actions on a collection,
// which only legacy personal API keys without scopes may call.
type CustomAction string

// The service's custom actions.
const (
	ActionRearrange CustomAction = "rearrange"
	ActionJob       CustomAction = "job"
	ActionFrontend  CustomAction = "frontend"
	ActionMigrate   CustomAction = "migrate"
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
	case ActionJob:
		return "Run the job from the config's page in PostHog's UI." + legacy
	case ActionFrontend:
		return "Open the plugin's page in PostHog's UI to see its frontend." + legacy
	case ActionMigrate:
		return "Build the hog function yourself with the official provider's posthog_hog_function, from what the " +
			"config data sources show of it: see " + MovingGuide + "." + legacy
	default:
		return "Ordering does not need it: the order resource updates each config's order instead. If you see " +
			"this, report it."
	}
}
