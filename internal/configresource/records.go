package configresource

import (
	"cmp"
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
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
func List(ctx context.Context, c *client.Client, project string, k framework.Kind, f Filter) ([]client.Record, error) {
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
