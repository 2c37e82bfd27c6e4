package record

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

// PlanLookup is what a construct that acts on a config (a job, a
// migration) says when its plan-time look at the config fails.
type PlanLookup struct {
	// Attr is the construct's config_id attribute.
	Attr path.Path
	// Unknown ends the sentence "Project P has no K with id N, ...", e.g.
	// "so no job can run on it".
	Unknown string
	// Deferred ends the warning "Reading K N failed, ...", e.g. "so the
	// service judges the migration at apply".
	Deferred string
}

// ForPlan reads config id of kind k for a plan-time check, through the
// operation's read cache, so that the checks of many configs (a migration
// of each) are served from list pages as a refresh's reads are. A config the project does not have, or a service without the
// API, is an error; any other failure a warning, leaving the judgement to
// the service at apply. The record is nil whenever the check cannot go on.
func ForPlan(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, id int64, l PlanLookup) (*client.Record, diag.Diagnostics) {
	var diags diag.Diagnostics
	rec, err := meta.ReadCache().Read(ctx, project, k.Collection, id)
	switch {
	case client.IsNotFound(err):
		diags.AddAttributeError(l.Attr, fmt.Sprintf("Unknown %s %d", k.Noun, id), fmt.Sprintf(
			"Project %s has no %s with id %d, %s.\n\n%s", project, k.Noun, id, l.Unknown, framework.DescribeError(err)))
	case client.IsServiceGone(err):
		framework.AddAPIError(&diags, fmt.Sprintf("Could not read %s %d", k.Noun, id), err, nil)
	case err != nil:
		diags.AddAttributeWarning(l.Attr, "Could not check the config at plan time", fmt.Sprintf(
			"Reading %s %d failed, %s.\n\n%s", k.Noun, id, l.Deferred, framework.DescribeError(err)))
	default:
		return rec, nil
	}
	return nil, diags
}
