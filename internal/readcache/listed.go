package readcache

import (
	"context"
	"sync"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// WithPluginInfo returns recs, records a list of collection coll of project
// showed (pages leave plugin_info out), each with its plugin's plugin_info:
// the one a GET of this operation showed, or else a GET of the plugin's
// first record, whose answer replaces that record; the plugin's other
// records wait for it. The list data source and the list resource so learn
// each plugin's secret keys with at most one GET per plugin and operation,
// shared with the reads of a refresh. A record gone since the page (404, or
// soft-deleted) is left out, keeping the order of the others. Errors are
// the client's, from a GET.
func (c *Cache) WithPluginInfo(ctx context.Context, project string, coll client.Collection, recs []client.Record) ([]client.Record, error) {
	k := collKey{project, coll}
	out := make([]*client.Record, len(recs))
	errs := make([]error, len(recs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, fetchParallelism)
	for i := range recs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i], errs[i] = c.withPluginInfo(ctx, k, &recs[i])
		})
	}
	wg.Wait()
	kept := make([]client.Record, 0, len(recs))
	for i, rec := range out {
		switch {
		case client.IsNotFound(errs[i]):
		case errs[i] != nil:
			return nil, errs[i]
		case !rec.Deleted:
			kept = append(kept, *rec)
		}
	}
	return kept, nil
}
