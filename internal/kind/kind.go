// Package kind is the registry of the collections of pipeline config records
// (transformation configs, import-app configs): every construct is written
// once over a Kind, and the provider registers it for each kind. A Kind
// names its constructs and tells in which collection the service shows a
// plugin's configs.
package kind

import (
	"encoding/json"
	"slices"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// Kind describes one collection of pipeline config records: how its
// constructs are named and which plugins' configs the service shows in it.
type Kind struct {
	// Name is the kind's part of type names: pipeline_<Name>_config.
	Name string
	// Collection is the API collection holding the kind's records.
	Collection client.Collection
	// Noun is the human name of one record, e.g. "transformation config".
	Noun string
	// PluginNoun is the human name of the kind's plugins, e.g.
	// "transformation" as in "a transformation plugin".
	PluginNoun string
	// shows reports whether the service shows, in this collection, configs of
	// a plugin with the given capabilities.
	shows func(pluginCapabilities) bool
}

// Transformation is the kind of pipeline_transformation_configs: configs of
// plugins whose methods include processEvent.
var Transformation = Kind{
	Name:       "transformation",
	Collection: client.Transformations,
	Noun:       "transformation config",
	PluginNoun: "transformation",
	shows: func(c pluginCapabilities) bool {
		return slices.Contains(c.Methods, "processEvent")
	},
}

// ImportApp is the kind of pipeline_import_apps_configs: configs of plugins
// with scheduled tasks.
var ImportApp = Kind{
	Name:       "import_app",
	Collection: client.ImportApps,
	Noun:       "import app config",
	PluginNoun: "import app",
	shows: func(c pluginCapabilities) bool {
		return len(c.ScheduledTasks) > 0
	},
}

// Kinds returns every kind, in registration order.
func Kinds() []Kind { return []Kind{Transformation, ImportApp} }

// OwnFirst returns every kind, k first: the order in which to look for a
// config of k that may show in another collection.
func (k Kind) OwnFirst() []Kind {
	kinds := []Kind{k}
	for _, o := range Kinds() {
		if o.Name != k.Name {
			kinds = append(kinds, o)
		}
	}
	return kinds
}

// TypeSuffix is what follows the provider's type name in the type name of
// the kind's construct: "_<kind>_<construct>", e.g. "_transformation_order".
func (k Kind) TypeSuffix(construct string) string { return "_" + k.Name + "_" + construct }

// ConfigTypeSuffix is the type suffix of the constructs that show one
// record (the resource, the data source, the list resource): "_<kind>_config".
func (k Kind) ConfigTypeSuffix() string { return k.TypeSuffix("config") }

// ConfigTypeName is the full type name of the kind's record resource, e.g.
// "pipeline_transformation_config", for messages that name it.
func (k Kind) ConfigTypeName() string { return framework.ProviderTypeName + k.ConfigTypeSuffix() }

// pluginCapabilities is the part of a record's plugin_info that decides in
// which collection the service shows the record.
type pluginCapabilities struct {
	Methods        []string `json:"methods"`
	ScheduledTasks []string `json:"scheduled_tasks"`
}

// capabilitiesOf returns the plugin capabilities in a record's plugin_info,
// and false when plugin_info does not carry them (list pages send null).
func capabilitiesOf(pluginInfo json.RawMessage) (pluginCapabilities, bool) {
	var info struct {
		Capabilities *pluginCapabilities `json:"capabilities"`
	}
	// Lenient: plugin_info may be any JSON value; anything but an object with
	// a capabilities object means "not known".
	if err := json.Unmarshal(pluginInfo, &info); err != nil || info.Capabilities == nil {
		return pluginCapabilities{}, false
	}
	return *info.Capabilities, true
}

// Shows reports whether the collection shows rec, and whether rec's
// plugin_info was enough to tell.
func (k Kind) Shows(rec *client.Record) (shows, known bool) {
	caps, ok := capabilitiesOf(rec.PluginInfo)
	if !ok {
		return false, false
	}
	return k.shows(caps), true
}
