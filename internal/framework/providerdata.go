// Package framework holds what every construct shares on top of
// terraform-plugin-framework (DESIGN.md): the provider's data, the bases of
// resources, data sources and actions, the kinds they are written over,
// project_id, time limits, raw values and API errors as diagnostics. It knows
// no attribute of a record.
package framework

import (
	"context"
	"net/http"
	"strconv"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// ProviderTypeName is the prefix of every construct's type name.
const ProviderTypeName = "pipeline"

// ProviderData is what the configured provider hands to every construct;
// Terraform configures a provider once per operation, so it lives for one.
type ProviderData struct {
	Client     *client.Client
	ProjectID  string // the provider's default project, "" for none
	JournalDir string // where creates are journaled (package createonce), "" for nowhere

	readCacheOnce sync.Once
	readCache     *client.ReadCache
	plugins       sync.Map // plugin id -> the pluginAnswer that holds for the operation
	pluginLooks   singleflight.Group
}

// ReadCache returns the operation's batched record reader (client.ReadCache).
func (d *ProviderData) ReadCache() *client.ReadCache {
	d.readCacheOnce.Do(func() { d.readCache = client.NewReadCache(d.Client, d.Client.PageSize()) })
	return d.readCache
}

// pluginAnswer is one look's outcome; ownerEnded says the look stopped
// because the context of the caller that made it ended.
type pluginAnswer struct {
	plugin     *client.Plugin
	err        error
	ownerEnded bool
}

// Plugin returns plugin id as the organization's plugin listing shows it.
// The listing is asked once per operation for an answer that holds: the
// plugin, or a refusal that the same request would get again (a 4xx other
// than 429, such as a key limited to projects, or the API gone). What
// waiting may mend (no answer, a 5xx, a throttle, a cancelled context) is
// never kept: the next caller asks again. Concurrent callers share one look;
// when it ends because its caller's context ended, the others look again
// under their own.
func (d *ProviderData) Plugin(ctx context.Context, id int64) (*client.Plugin, error) {
	for {
		if a, ok := d.knownPlugin(id); ok {
			return a.plugin, a.err
		}
		look := d.pluginLooks.DoChan(strconv.FormatInt(id, 10), func() (any, error) {
			if a, ok := d.knownPlugin(id); ok {
				return a, nil
			}
			p, err := d.Client.Plugin(ctx, client.CurrentOrganization, id)
			a := pluginAnswer{plugin: p, err: err, ownerEnded: err != nil && ctx.Err() != nil}
			if err == nil || lastingRefusal(err) {
				d.plugins.Store(id, a)
			}
			return a, nil
		})
		select {
		case r := <-look:
			a, _ := r.Val.(pluginAnswer)
			if !a.ownerEnded || ctx.Err() != nil {
				return a.plugin, a.err
			}
			// Another caller's context ended its look: look again under ours.
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (d *ProviderData) knownPlugin(id int64) (pluginAnswer, bool) {
	a, ok := d.plugins.Load(id)
	answer, _ := a.(pluginAnswer)
	return answer, ok
}

// lastingRefusal reports an answer the same request gets again within the
// operation: a 4xx but a 429, or the API gone.
func lastingRefusal(err error) bool {
	status := client.StatusOf(err)
	return status >= 400 && status < 500 && status != http.StatusTooManyRequests || client.IsServiceGone(err)
}
