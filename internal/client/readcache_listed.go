package client

import (
	"context"
)

// WithPluginInfo returns recs, records a list of collection coll of project
// showed, each with its plugin's plugin_info as a page's record gets it
// (one GET per plugin and operation). A record gone since the list (404, or
// soft-deleted) is left out. Errors are the client's, from a GET.
func (c *ReadCache) WithPluginInfo(ctx context.Context, project string, coll Collection, recs []Record) ([]Record, error) {
	k := collKey{project, coll}
	out := make([]*Record, len(recs))
	errs := make([]error, len(recs))
	parallel(len(recs), func(i int) {
		out[i], errs[i] = c.withPluginInfo(ctx, k, &recs[i])
	})
	kept := make([]Record, 0, len(recs))
	for i, rec := range out {
		switch {
		case IsNotFound(errs[i]):
		case errs[i] != nil:
			return nil, errs[i]
		case !rec.Deleted:
			kept = append(kept, *rec)
		}
	}
	return kept, nil
}
