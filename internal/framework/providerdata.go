package framework

import (
	"context"
	"sync"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/readcache"
)

// ProviderData is what the configured provider hands to every resource and
// data source. Terraform configures a provider once per operation, so what
// hangs off it lives for one operation. Use it by pointer only.
type ProviderData struct {
	// Client is the one API client of the provider.
	Client *client.Client
	// ProjectID is the provider's default project: an integer or "@current",
	// or "" when the provider has none.
	ProjectID string
	// JournalDir is where creates of this working directory and workspace
	// are journaled (package createonce); "" for nowhere.
	JournalDir string

	readCacheOnce sync.Once
	readCache     *readcache.Cache

	pluginsMu sync.Mutex
	plugins   map[int64]*pluginLookup
}

// pluginLookup is one look at a plugin in the organization's listing.
type pluginLookup struct {
	once   sync.Once
	plugin *client.Plugin
	err    error
}

// Plugin returns plugin id as the organization's plugin listing shows it,
// looked up once per operation (concurrent callers share the look), or the
// error that says why it cannot be read (a key limited to projects, a
// service without the listing).
func (d *ProviderData) Plugin(ctx context.Context, id int64) (*client.Plugin, error) {
	d.pluginsMu.Lock()
	if d.plugins == nil {
		d.plugins = map[int64]*pluginLookup{}
	}
	l := d.plugins[id]
	if l == nil {
		l = &pluginLookup{}
		d.plugins[id] = l
	}
	d.pluginsMu.Unlock()
	l.once.Do(func() { l.plugin, l.err = d.Client.Plugin(ctx, client.CurrentOrganization, id) })
	return l.plugin, l.err
}

// ReadCache returns the operation's batched record reader: reads of many
// records of a collection are served from list pages (see package
// readcache). Every collection and project shares it.
func (d *ProviderData) ReadCache() *readcache.Cache {
	d.readCacheOnce.Do(func() { d.readCache = readcache.New(d.Client, d.Client.PageSize()) })
	return d.readCache
}

// ProviderTypeName is the provider's type name, the prefix of every
// construct's type name.
const ProviderTypeName = "pipeline"
