package framework

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// CustomAction names one of the service's custom actions on a collection;
// only legacy personal API keys without scopes may call them (migrate: as
// the local API assumes; the notes do not say).
type CustomAction string

// The service's custom actions.
const (
	ActionRearrange CustomAction = "rearrange"
	ActionJob       CustomAction = "job"
	ActionFrontend  CustomAction = "frontend"
	ActionMigrate   CustomAction = "migrate"
)

// AddCustomActionError reports a failed custom action. When the service
// refused the key (client.IsKeyRefused), the detail says why and what to do
// instead; otherwise it is the usual API error, on the attribute attrPath
// names.
func AddCustomActionError(diags *diag.Diagnostics, summary string, a CustomAction, err error, attrPath AttrPathFunc) {
	if !client.IsKeyRefused(err) {
		AddAPIError(diags, summary, err, attrPath)
		return
	}
	var apiErr *client.APIError
	_ = errors.As(err, &apiErr)
	diags.AddError(summary, fmt.Sprintf("%s %s answered 403 Forbidden: %q.\n\n"+
		"The service lets only legacy personal API keys (keys created without scopes) call %s; every key with "+
		"scopes, even \"*\", is refused. %s",
		apiErr.Method, apiErr.Path, apiErr.Detail, a, insteadOf(a)))
}

// insteadOf says what to do when the key may not call a custom action.
func insteadOf(a CustomAction) string {
	const legacy = "configure this provider (or an aliased provider used only for it) with a legacy personal " +
		"API key without scopes"
	switch a {
	case ActionJob:
		return "To run jobs, " + legacy + "."
	case ActionFrontend:
		return "To read the frontend, " + legacy + "."
	case ActionMigrate:
		return "To migrate configs, " + legacy + "."
	default:
		return "Ordering does not need it: the order resource falls back to updating each config's order. " +
			"If you see this, " + legacy + "."
	}
}
