package record

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

// Filter narrows a collection's records for the list data source and the
// list resource; null attributes do not narrow.
type Filter struct {
	Enabled types.Bool
	Plugin  types.Int64
}

// List returns every record of the kind's collection in project that passes
// f, by order and then id (the service promises no order). A soft-deleted
// record never passes, even on a page that held one.
func List(ctx context.Context, c *client.Client, project string, k kind.Kind, f Filter) ([]client.Record, error) {
	all, err := c.ListAll(ctx, project, k.Collection)
	if err != nil {
		return nil, err
	}
	out := slices.DeleteFunc(all, func(rec client.Record) bool {
		return rec.Deleted ||
			framework.IsSet(f.Enabled) && rec.Enabled != f.Enabled.ValueBool() ||
			framework.IsSet(f.Plugin) && rec.Plugin != f.Plugin.ValueInt64()
	})
	SortByOrder(out)
	return out, nil
}

// SortByOrder sorts records by order, then id.
func SortByOrder(recs []client.Record) {
	slices.SortStableFunc(recs, func(a, b client.Record) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.ID, b.ID))
	})
}

// PlanLookup is what a construct that acts on a config (a job, a migration)
// says when its plan-time look at the config fails.
type PlanLookup struct {
	// Attr is the construct's config_id attribute.
	Attr path.Path
	// Unknown ends "Project P has no K with id N, ...".
	Unknown string
	// Deferred ends the warning "Reading K N failed, ...".
	Deferred string
}

// ForPlan reads config id for a plan-time check through the read cache (many
// checks, few pages). A config the project lacks, or a service without the
// API, is an error; another failure a warning, left to the service at apply.
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
