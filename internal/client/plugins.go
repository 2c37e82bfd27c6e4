package client

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// PluginListing names one of an organization's plugin listings (the notes'
// "Finding a plugin").
type PluginListing string

const (
	// AllPlugins lists every plugin the organization can use.
	AllPlugins PluginListing = "plugins"
	// TransformationPlugins lists the plugins whose configs Transformations holds.
	TransformationPlugins PluginListing = "pipeline_transformations"
	// ImportAppPlugins lists the plugins whose configs ImportApps holds.
	ImportAppPlugins PluginListing = "pipeline_import_apps"
)

// PluginListing returns the listing of the plugins whose configs coll holds.
func (coll Collection) PluginListing() PluginListing {
	return cmp.Or(map[Collection]PluginListing{Transformations: TransformationPlugins, ImportApps: ImportAppPlugins}[coll], AllPlugins)
}

// CurrentOrganization is the address of the API key owner's current
// organization.
const CurrentOrganization = "@current"

// Plugin is a plugin as the plugin listings answer it, read leniently;
// record.PluginOf reads the rest from JSON.
type Plugin struct {
	ID                 int64
	Name               *string
	Description        *string
	URL                *string
	PublicJobs         json.RawMessage
	MigrationAvailable *bool           // hog_function_migration_available; nil from a service older than it
	JSON               json.RawMessage // the whole plugin as answered, compact
}

// UnmarshalJSON decodes a plugin leniently; only an answer that is not an
// object, or an id that is not an integer, is an error.
func (p *Plugin) UnmarshalJSON(data []byte) error {
	f, ok := python.Object(string(data))
	if !ok {
		return fmt.Errorf("decoding plugin: not a JSON object: %.40s", data)
	}
	var id python.FlexInt
	if raw, has := f["id"]; has {
		if err := json.Unmarshal(raw, &id); err != nil {
			return fmt.Errorf("decoding plugin: id: %w", err)
		}
	}
	*p = Plugin{
		ID:                 int64(id),
		Name:               lenient[string](f["name"]),
		Description:        lenient[string](f["description"]),
		URL:                lenient[string](f["url"]),
		PublicJobs:         f["public_jobs"],
		MigrationAvailable: (*bool)(lenient[python.FlexBool](f["hog_function_migration_available"])),
		JSON:               json.RawMessage(python.Compact(data)),
	}
	return nil
}

// lenient is a field's value, nil when null, absent or not a T.
func lenient[T any](raw json.RawMessage) *T {
	var v T
	if python.IsNull(raw) || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return &v
}

// Plugin returns plugin id as org's listing shows it; a 404 of the listing
// too is a *ServiceGoneError.
func (c *Client) Plugin(ctx context.Context, org string, id int64) (*Plugin, error) {
	p, err := organizationPath(org, AllPlugins)
	if err != nil {
		return nil, err
	}
	plugin, err := getJSON[Plugin](ctx, c, p+FormatID(id)+"/")
	if apiErr := notFound404(err); apiErr != nil && !IsOrganizationNotFound(err) {
		if _, listErr := getPage[Plugin](ctx, c, p, Collection(AllPlugins), 1, 0); IsServiceGone(listErr) {
			return nil, &ServiceGoneError{Method: apiErr.Method, Path: apiErr.Path, Collection: Collection(AllPlugins), CollectionPath: p, Err: apiErr}
		}
	}
	return plugin, err
}

// ListPlugins returns every plugin of org's listing within the budget of
// one listing; its errors are those of Plugin.
func (c *Client) ListPlugins(ctx context.Context, org string, listing PluginListing) ([]Plugin, error) {
	p, err := organizationPath(org, listing)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("%s of organization %s", listing, org)
	return listAll(ctx, what, c.pageSize, func(offset int) (*listPage[Plugin], error) {
		return getPage[Plugin](ctx, c, p, Collection(listing), c.pageSize, offset)
	}, func(p *Plugin) int64 { return p.ID })
}
