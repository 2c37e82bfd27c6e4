package configresource

import (
	"context"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// read returns the record behind a resource's state for Read: through the
// operation's read cache, which serves a refresh of many records from list
// pages (package readcache) with the plugin_info a GET of the operation
// showed for their plugin. An import (a state of project_id and id alone)
// reads by GET.
func (r *configResource) read(ctx context.Context, meta *framework.ProviderData, state *record.Config) (*client.Record, error) {
	project, id := state.ProjectID.ValueString(), state.ID.ValueInt64()
	if state.Plugin.IsNull() || state.Plugin.IsUnknown() {
		return meta.Client.Get(ctx, project, r.kind.Collection, id)
	}
	return meta.ReadCache().Read(ctx, project, r.kind.Collection, id)
}
