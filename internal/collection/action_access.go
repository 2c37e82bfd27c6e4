package collection

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// customAction names one of the service's custom actions on a collection;
// only legacy personal API keys without scopes may call them.
type customAction string

const (
	actionRearrange customAction = "rearrange"
	actionJob       customAction = "job"
	actionFrontend  customAction = "frontend"
)

// keyRefused reports whether err is the service refusing the key itself for
// a custom action: 403 "This action does not support Personal API Key
// access", which every key with scopes gets (a 403 for the project is
// another matter).
func keyRefused(err error) bool {
	var apiErr *client.APIError
	return errors.As(err, &apiErr) && apiErr.Status == 403 &&
		strings.Contains(strings.ToLower(apiErr.Detail), "personal api key access")
}

// addCustomActionError reports a failed custom action. When the service
// refused the key, the detail says why and what to do instead; otherwise it
// is the usual API error, on the attribute attrPath names.
func addCustomActionError(diags *diag.Diagnostics, summary string, a customAction, err error, attrPath framework.AttrPathFunc) {
	if !keyRefused(err) {
		framework.AddAPIError(diags, summary, err, attrPath)
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
func insteadOf(a customAction) string {
	const legacy = "configure this provider (or an aliased provider used only for it) with a legacy personal " +
		"API key without scopes"
	switch a {
	case actionJob:
		return "To run jobs, " + legacy + "."
	case actionFrontend:
		return "To read the frontend, " + legacy + "."
	default:
		return "Ordering does not need it: the order resource falls back to updating each config's order. " +
			"If you see this, " + legacy + "."
	}
}
