// Package framework holds what every construct shares on top of
// terraform-plugin-framework (DESIGN.md): the provider's data, the bases of
// resources, data sources and actions, the kinds they are written over,
// project_id, time limits, raw values and API errors as diagnostics. It knows
// no attribute of a record.
package framework

import (
	"sync"

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
	plugins       pluginLookups
}

// ReadCache returns the operation's batched record reader (client.ReadCache).
func (d *ProviderData) ReadCache() *client.ReadCache {
	d.readCacheOnce.Do(func() { d.readCache = client.NewReadCache(d.Client, d.Client.PageSize()) })
	return d.readCache
}
