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
// data: it is given at start (Options.Plugins or the -plugins file), can be
// changed at run time as an upgrade of a plugin would (Server.SetPlugin),
// and is not stored in the database.
type Plugin struct {
	ID int64 `json:"id"`
	// Name and Description are the plugin's own: text, "" or nil (null),
	// as on the service, where plugins written in the browser or installed
	// without a description are common. Answers show them for a config
	// whose own are empty.
	Name        *string `json:"name"`
	Description *string `json:"description"`
	URL         string  `json:"url,omitempty"`
	PluginType  string  `json:"plugin_type,omitempty"`
	Tag         string  `json:"tag,omitempty"`
	// LatestTag is the newest tag the service found for the plugin (an
	// upgrade is available when it is not Tag); Icon the URL of its logo.
	LatestTag    string             `json:"latest_tag,omitempty"`
	Icon         string             `json:"icon,omitempty"`
	Capabilities Capabilities       `json:"capabilities"`
	ConfigSchema ConfigSchema       `json:"config_schema"`
	PublicJobs   map[string]JobSpec `json:"public_jobs"`
	// Frontend is the JavaScript served by the frontend action; empty means
	// the plugin has none and the action answers the live "no frontend" stub.
	Frontend string `json:"frontend,omitempty"`
}

// Capabilities decides which collection shows a plugin's configs. A list
// left out (nil) is not shown; one given, even empty, is: the service tells
// a plugin whose methods are [] from one without methods (the import-apps
// rule, isImportApp).
type Capabilities struct {
	Methods        []string `json:"methods,omitempty"`
	ScheduledTasks []string `json:"scheduled_tasks,omitempty"`
	Jobs           []string `json:"jobs,omitempty"`
}

// MarshalJSON writes the lists that were given, an empty one as [].
func (c Capabilities) MarshalJSON() ([]byte, error) {
	type given struct {
		Methods        *[]string `json:"methods,omitempty"`
		ScheduledTasks *[]string `json:"scheduled_tasks,omitempty"`
		Jobs           *[]string `json:"jobs,omitempty"`
	}
	var g given
	for _, f := range []struct {
		list []string
		dst  **[]string
	}{{c.Methods, &g.Methods}, {c.ScheduledTasks, &g.ScheduledTasks}, {c.Jobs, &g.Jobs}} {
		if f.list != nil {
			*f.dst = &f.list
		}
	}
	return json.Marshal(g)
}

// ConfigField is one entry of a plugin's config_schema. Secret fields of
// the list form come back masked and keep their value when an update leaves
// them out.
type ConfigField struct {
	Key      string          `json:"key,omitempty"`
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
		if seen[p.ID] {
			errs = append(errs, fmt.Errorf("plugin %d: id %d used twice", i, p.ID))
		}
		seen[p.ID] = true
		errs = append(errs, p.check(i))
	}
	return errors.Join(errs...)
}

// check returns what is wrong with the plugin, the i-th of its catalog, if
// anything. Its name and description may be text, "" or null.
func (p *Plugin) check(i int) error {
	var errs []error
	if p.ID <= 0 {
		errs = append(errs, fmt.Errorf("plugin %d: id must be a positive integer", i))
	}
	seen := map[string]bool{}
	for j, f := range p.ConfigSchema.Fields {
		switch {
		case f.Key == "":
			errs = append(errs, fmt.Errorf("plugin %d (id %d): config_schema[%d] has no key", i, p.ID, j))
		case seen[f.Key]:
			errs = append(errs, fmt.Errorf("plugin %d (id %d): config_schema key %q used twice", i, p.ID, f.Key))
		}
		seen[f.Key] = true
	}
	return errors.Join(errs...)
}

// isTransformation: the live filter is methods containing processEvent.
func (p *Plugin) isTransformation() bool {
	return slices.Contains(p.Capabilities.Methods, "processEvent")
}

// isImportApp is the live filter (the notes' Records, "this rule holds in
// every version that has the collection"; PostHog's
// PipelineImportAppsConfigsViewSet and PipelineImportAppsViewSet): a
// non-empty scheduled_tasks list, or a methods list (present: an empty one
// counts) holding none of onEvent, composeWebhook and processEvent.
func (p *Plugin) isImportApp() bool {
	m := p.Capabilities.Methods
	return len(p.Capabilities.ScheduledTasks) > 0 || (m != nil &&
		!slices.Contains(m, "onEvent") && !slices.Contains(m, "composeWebhook") && !slices.Contains(m, "processEvent"))
}

// pluginInfo renders the plugin as the live plugin_info object.
func (p *Plugin) pluginInfo() json.RawMessage { return p.serialize(false) }

// listingEntry renders the plugin as the organization's plugin listings answer
// it: plugin_info's fields and hog_function_migration_available, which
// plugin_info carries too from generation 2 on (PostHog's PluginSerializer;
// before, the field did not exist).
func (p *Plugin) listingEntry() json.RawMessage { return p.serialize(true) }

// serialize renders the plugin as PostHog's plugin serializer does, its
// fields in the live order.
func (p *Plugin) serialize(listed bool) json.RawMessage {
	type info struct {
		ID               int64              `json:"id"`
		PluginType       string             `json:"plugin_type"`
		Name             *string            `json:"name"`
		Description      *string            `json:"description"`
		URL              *string            `json:"url"`
		Icon             *string            `json:"icon"`
		ConfigSchema     ConfigSchema       `json:"config_schema"`
		Tag              *string            `json:"tag"`
		LatestTag        *string            `json:"latest_tag"`
		IsGlobal         bool               `json:"is_global"`
		OrganizationID   string             `json:"organization_id"`
		OrganizationName string             `json:"organization_name"`
		Capabilities     Capabilities       `json:"capabilities"`
		Metrics          struct{}           `json:"metrics"`
		PublicJobs       map[string]JobSpec `json:"public_jobs"`
		// MigrationAvailable is left out of generation 1's plugin_info.
		MigrationAvailable *bool `json:"hog_function_migration_available,omitempty"`
	}
	v := info{
		ID:               p.ID,
		PluginType:       p.PluginType,
		Name:             p.Name,
		Description:      p.Description,
		URL:              nonEmpty(p.URL),
		Icon:             nonEmpty(p.Icon),
		ConfigSchema:     p.ConfigSchema,
		Tag:              nonEmpty(p.Tag),
		LatestTag:        nonEmpty(p.LatestTag),
		IsGlobal:         true,
		OrganizationID:   OrganizationID,
		OrganizationName: OrganizationName,
		Capabilities:     p.Capabilities,
	}
	if v.PluginType == "" {
		v.PluginType = "custom"
	}
	if listed {
		// PostHog: HOG_FUNCTION_MIGRATORS.get(plugin.url) is not None.
		available := migratorFor(p) != nil
		v.MigrationAvailable = &available
	}
	// Live shapes: {} rather than null for no jobs and for no payload.
	v.PublicJobs = make(map[string]JobSpec, len(p.PublicJobs))
	for name, job := range p.PublicJobs {
		if job.Payload == nil {
			job.Payload = map[string]JobField{}
		}
		v.PublicJobs[name] = job
	}
	out, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain values: cannot fail
	}
	return out
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Collections names the collections that show the plugin's configs.
func (p *Plugin) Collections() []string {
	var out []string
	for _, name := range []string{TransformationConfigs, ImportAppConfigs} {
		if collectionKinds[name](p) {
			out = append(out, name)
		}
	}
	return out
}
