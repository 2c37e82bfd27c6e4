// Package framework holds what every construct shares on top of
// terraform-plugin-framework (DESIGN.md); it knows no collection or record.
package framework

import (
	"context"
	"sync"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/readcache"
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
	readCache     *readcache.Cache
	plugins       sync.Map // plugin id -> func() (*client.Plugin, error), looked up once
}

// Plugin returns plugin id as the organization's plugin listing shows it,
// looked up once per operation (concurrent callers share the look).
func (d *ProviderData) Plugin(ctx context.Context, id int64) (*client.Plugin, error) {
	lookup, _ := d.plugins.LoadOrStore(id, sync.OnceValues(func() (*client.Plugin, error) {
		return d.Client.Plugin(ctx, client.CurrentOrganization, id)
	}))
	look, _ := lookup.(func() (*client.Plugin, error))
	return look()
}

// ReadCache returns the operation's batched record reader (package readcache).
func (d *ProviderData) ReadCache() *readcache.Cache {
	d.readCacheOnce.Do(func() { d.readCache = readcache.New(d.Client, d.Client.PageSize()) })
	return d.readCache
}
