package framework

import (
	"encoding/json"
	"slices"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// Kind is one collection of config records, over which every construct is
// written once: its constructs' names and which plugins' configs it shows.
type Kind struct {
	// Name is the kind's part of type names: pipeline_<Name>_config.
	Name       string
	Collection client.Collection
	// Noun names one record, e.g. "transformation config".
	Noun string
	// PluginNoun names its plugins, as in "a transformation plugin".
	PluginNoun string
	// ExamplePlugin names a well-known plugin of the kind, for the docs' examples.
	ExamplePlugin string
	shows         func(pluginCapabilities) bool
}

// Transformation is the kind of configs of plugins with processEvent.
var Transformation = Kind{
	Name:          "transformation",
	Collection:    client.Transformations,
	Noun:          "transformation config",
	PluginNoun:    "transformation",
	ExamplePlugin: "GeoIP",
	shows: func(c pluginCapabilities) bool {
		return slices.Contains(c.Methods, "processEvent")
	},
}

// ImportApp is the kind of configs of plugins with scheduled tasks.
var ImportApp = Kind{
	Name:          "import_app",
	Collection:    client.ImportApps,
	Noun:          "import app config",
	PluginNoun:    "import app",
	ExamplePlugin: "S3 Import",
	shows: func(c pluginCapabilities) bool {
		return len(c.ScheduledTasks) > 0
	},
}

// Kinds returns every kind, in registration order.
func Kinds() []Kind { return []Kind{Transformation, ImportApp} }

// OwnFirst returns every kind, k first: where a config of k may show.
func (k Kind) OwnFirst() []Kind {
	return append([]Kind{k}, slices.DeleteFunc(Kinds(), func(o Kind) bool { return o.Name == k.Name })...)
}

// TypeSuffix is "_<kind>_<construct>", which follows the provider's type name.
func (k Kind) TypeSuffix(construct string) string { return "_" + k.Name + "_" + construct }

// ConfigTypeSuffix is the type suffix of the constructs that show one record.
func (k Kind) ConfigTypeSuffix() string { return k.TypeSuffix("config") }

// ConfigTypeName is the full type name of the kind's config resource.
func (k Kind) ConfigTypeName() string { return ProviderTypeName + k.ConfigTypeSuffix() }

// pluginCapabilities is the part of plugin_info that decides the collection.
type pluginCapabilities struct {
	Methods        []string `json:"methods"`
	ScheduledTasks []string `json:"scheduled_tasks"`
}

// Shows reports whether the collection shows rec, and whether its plugin_info
// tells (list pages send null).
func (k Kind) Shows(rec *client.Record) (shows, known bool) {
	var info struct {
		Capabilities *pluginCapabilities `json:"capabilities"`
	}
	if json.Unmarshal(rec.PluginInfo, &info) != nil || info.Capabilities == nil {
		return false, false
	}
	return k.shows(*info.Capabilities), true
}
