package localapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Plugin is one entry of the plugin catalog, in the live service's shapes.
// Configs reference plugins by ID; the catalog itself is configuration, not
// data: it is given at start (Options.Plugins or the -plugins file) and is
// not stored in the database.
type Plugin struct {
	ID           int64              `json:"id"`
	Name         string             `json:"name"`
	Description  string             `json:"description"`
	URL          string             `json:"url,omitempty"`
	PluginType   string             `json:"plugin_type,omitempty"`
	Tag          string             `json:"tag,omitempty"`
	Capabilities Capabilities       `json:"capabilities"`
	ConfigSchema []ConfigField      `json:"config_schema"`
	PublicJobs   map[string]JobSpec `json:"public_jobs"`
	// Frontend is the JavaScript served by the frontend action; empty means
	// the plugin has none and the action answers the live "no frontend" stub.
	Frontend string `json:"frontend,omitempty"`
}

// Capabilities decides which collection shows a plugin's configs.
type Capabilities struct {
	Methods        []string `json:"methods,omitempty"`
	ScheduledTasks []string `json:"scheduled_tasks,omitempty"`
	Jobs           []string `json:"jobs,omitempty"`
}

// ConfigField is one entry of a plugin's config_schema. Secret fields come
// back masked and keep their value when an update leaves them out.
type ConfigField struct {
	Key      string          `json:"key"`
	Name     string          `json:"name,omitempty"`
	Type     string          `json:"type,omitempty"`
	Default  json.RawMessage `json:"default,omitempty"`
	Hint     string          `json:"hint,omitempty"`
	Required bool            `json:"required,omitempty"`
	Secret   bool            `json:"secret,omitempty"`
	Choices  []string        `json:"choices,omitempty"`
}

// JobSpec describes a public job: the payload fields it accepts.
type JobSpec struct {
	Payload map[string]JobField `json:"payload"`
}

// JobField is one payload field of a public job.
type JobField struct {
	Type     string `json:"type,omitempty"`
	Title    string `json:"title,omitempty"`
	Required bool   `json:"required,omitempty"`
}

// DefaultPlugins returns the seeded catalog. Its IDs are fixed: other
// packages' tests rely on them.
func DefaultPlugins() []Plugin {
	return []Plugin{
		{
			ID:           1,
			Name:         "GeoIP",
			Description:  "Enrich events with location data looked up from the client's IP address.",
			URL:          "https://github.com/PostHog/posthog-plugin-geoip",
			PluginType:   "repository",
			Tag:          "v1.4.0",
			Capabilities: Capabilities{Methods: []string{"processEvent"}},
			ConfigSchema: []ConfigField{
				{Key: "api_key", Name: "Lookup API key", Type: "string", Secret: true},
				{Key: "locale", Name: "Locale", Type: "string"},
			},
		},
		{
			ID:           2,
			Name:         "Property Filter",
			Description:  "Set the listed event properties to null before the event is stored.",
			URL:          "https://github.com/PostHog/property-filter-plugin",
			PluginType:   "repository",
			Tag:          "v1.2.0",
			Capabilities: Capabilities{Methods: []string{"processEvent"}, Jobs: []string{"Reprocess"}},
			ConfigSchema: []ConfigField{
				{Key: "properties", Name: "Properties to filter out", Type: "string"},
			},
			PublicJobs: map[string]JobSpec{
				"Reprocess": {Payload: map[string]JobField{
					"since": {Type: "date", Required: true},
				}},
			},
			Frontend: propertyFilterFrontend,
		},
		{
			ID:           3,
			Name:         "S3 Import",
			Description:  "Import events from files in an S3 bucket every hour.",
			URL:          "https://github.com/PostHog/s3-import-plugin",
			PluginType:   "repository",
			Tag:          "v0.3.1",
			Capabilities: Capabilities{Methods: []string{"setupPlugin"}, ScheduledTasks: []string{"runEveryHour"}, Jobs: []string{"Backfill"}},
			ConfigSchema: []ConfigField{
				{Key: "bucket", Name: "Bucket", Type: "string"},
				{Key: "aws_secret_access_key", Name: "AWS secret access key", Type: "string", Secret: true},
			},
			PublicJobs: map[string]JobSpec{
				"Backfill": {Payload: map[string]JobField{
					"days":    {Type: "number", Required: true},
					"dry_run": {Type: "boolean"},
				}},
			},
		},
		{
			ID:           4,
			Name:         "BigQuery Import",
			Description:  "Import rows from a BigQuery dataset every day.",
			URL:          "https://github.com/PostHog/bigquery-import-plugin",
			PluginType:   "repository",
			Tag:          "v0.2.0",
			Capabilities: Capabilities{ScheduledTasks: []string{"runEveryDay"}, Jobs: []string{"Sync now"}},
			ConfigSchema: []ConfigField{
				{Key: "dataset", Name: "Dataset", Type: "string"},
			},
			PublicJobs: map[string]JobSpec{
				"Sync now": {Payload: map[string]JobField{}},
			},
		},
	}
}

// propertyFilterFrontend stands in for a transpiled frontend.tsx.
const propertyFilterFrontend = `"use strict";
export function getFrontendApp (require) {
  let exports = {};
  Object.defineProperty(exports, "__esModule", { value: true });
  exports.scene = {
    title: "Property Filter",
    component: function PropertyFilterScene({ config }) {
      return "Filtered properties: " + (config.properties || "(none)");
    },
  };
  return exports;
}
`

// LoadPlugins reads a -plugins file: a JSON array of Plugin objects.
func LoadPlugins(path string) ([]Plugin, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	plugins, err := ParsePlugins(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return plugins, nil
}

// ParsePlugins decodes and checks a JSON array of plugins.
func ParsePlugins(data []byte) ([]Plugin, error) {
	var plugins []Plugin
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&plugins); err != nil {
		return nil, fmt.Errorf("plugin catalog: %w", err)
	}
	if err := checkPlugins(plugins); err != nil {
		return nil, err
	}
	return plugins, nil
}

func checkPlugins(plugins []Plugin) error {
	var errs []error
	seen := map[int64]bool{}
	for i, p := range plugins {
		switch {
		case p.ID <= 0:
			errs = append(errs, fmt.Errorf("plugin %d: id must be a positive integer", i))
		case seen[p.ID]:
			errs = append(errs, fmt.Errorf("plugin %d: id %d used twice", i, p.ID))
		}
		seen[p.ID] = true
		if strings.TrimSpace(p.Name) == "" {
			// Responses fall back to the plugin's name: it cannot be empty.
			errs = append(errs, fmt.Errorf("plugin %d (id %d): name is empty", i, p.ID))
		}
		for j, f := range p.ConfigSchema {
			if f.Key == "" {
				errs = append(errs, fmt.Errorf("plugin %d (id %d): config_schema[%d] has no key", i, p.ID, j))
			}
		}
	}
	return errors.Join(errs...)
}

// isTransformation: the live filter is methods containing processEvent.
func (p *Plugin) isTransformation() bool {
	return slices.Contains(p.Capabilities.Methods, "processEvent")
}

// isImportApp: the live filter is a non-empty scheduled_tasks list.
func (p *Plugin) isImportApp() bool {
	return len(p.Capabilities.ScheduledTasks) > 0
}

// secretKeys lists the config keys the schema marks secret.
func (p *Plugin) secretKeys() []string {
	var keys []string
	for _, f := range p.ConfigSchema {
		if f.Secret {
			keys = append(keys, f.Key)
		}
	}
	return keys
}

// pluginInfo renders the plugin as the live plugin_info object.
func (p *Plugin) pluginInfo() json.RawMessage {
	type info struct {
		ID               int64              `json:"id"`
		PluginType       string             `json:"plugin_type"`
		Name             string             `json:"name"`
		Description      string             `json:"description"`
		URL              *string            `json:"url"`
		Icon             *string            `json:"icon"`
		ConfigSchema     []ConfigField      `json:"config_schema"`
		Tag              *string            `json:"tag"`
		LatestTag        *string            `json:"latest_tag"`
		IsGlobal         bool               `json:"is_global"`
		OrganizationID   string             `json:"organization_id"`
		OrganizationName string             `json:"organization_name"`
		Capabilities     Capabilities       `json:"capabilities"`
		Metrics          struct{}           `json:"metrics"`
		PublicJobs       map[string]JobSpec `json:"public_jobs"`
	}
	v := info{
		ID:               p.ID,
		PluginType:       p.PluginType,
		Name:             p.Name,
		Description:      p.Description,
		URL:              nonEmpty(p.URL),
		ConfigSchema:     p.ConfigSchema,
		Tag:              nonEmpty(p.Tag),
		IsGlobal:         true,
		OrganizationID:   localOrganizationID,
		OrganizationName: "Local",
		Capabilities:     p.Capabilities,
		PublicJobs:       p.PublicJobs,
	}
	if v.PluginType == "" {
		v.PluginType = "custom"
	}
	if v.ConfigSchema == nil {
		v.ConfigSchema = []ConfigField{}
	}
	if v.PublicJobs == nil {
		v.PublicJobs = map[string]JobSpec{}
	}
	for name, job := range v.PublicJobs {
		if job.Payload == nil {
			job.Payload = map[string]JobField{}
			v.PublicJobs[name] = job
		}
	}
	out, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain values: cannot fail
	}
	return out
}

// localOrganizationID is the one organization every seeded project is in.
const localOrganizationID = "01890000-0000-7000-8000-000000000001"

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// catalog indexes the plugins and precomputes what every request needs.
type catalog struct {
	byID map[int64]*catalogEntry
}

type catalogEntry struct {
	Plugin
	info    json.RawMessage
	secrets []string
}

func newCatalog(plugins []Plugin) (*catalog, error) {
	if err := checkPlugins(plugins); err != nil {
		return nil, err
	}
	c := &catalog{byID: make(map[int64]*catalogEntry, len(plugins))}
	for _, p := range plugins {
		// PublicJobs is copied by pluginInfo's normalisation: work on a copy.
		p.PublicJobs = clonePublicJobs(p.PublicJobs)
		e := &catalogEntry{Plugin: p, secrets: p.secretKeys()}
		e.info = e.pluginInfo()
		c.byID[p.ID] = e
	}
	return c, nil
}

func clonePublicJobs(in map[string]JobSpec) map[string]JobSpec {
	if in == nil {
		return nil
	}
	out := make(map[string]JobSpec, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

func (c *catalog) get(id int64) *catalogEntry { return c.byID[id] }

// ids returns the sorted IDs of the plugins keep accepts.
func (c *catalog) ids(keep func(*Plugin) bool) []int64 {
	var ids []int64
	for id, e := range c.byID {
		if keep(&e.Plugin) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// Collections names the collections that show the plugin's configs.
func (p *Plugin) Collections() []string {
	var out []string
	if p.isTransformation() {
		out = append(out, TransformationConfigs)
	}
	if p.isImportApp() {
		out = append(out, ImportAppConfigs)
	}
	return out
}
