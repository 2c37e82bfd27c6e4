package scenario

import (
	"encoding/json"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// outOfBandGen is a PATCH made on the service behind Terraform's back:
// change names one field ("name", "description", "enabled", "order",
// "filters", "settings"); cfg is the resource's configuration
// (nil when none), whose plugin the settings are drawn for.
func outOfBandGen(cat *Catalog, change string, cfg *Config) *rapid.Generator[client.RecordInput] {
	return rapid.Custom(func(t *rapid.T) client.RecordInput {
		var in client.RecordInput
		switch change {
		case "name":
			in.Name = client.Some(textGen(400).Draw(t, "name"))
		case "description":
			in.Description = client.Some(textGen(1000).Draw(t, "description"))
		case "enabled":
			in.Enabled = client.Some(rapid.Bool().Draw(t, "enabled"))
		case "order":
			in.Order = client.Some(rapid.Int64Range(-5, 5).Draw(t, "order"))
		case "filters":
			in.Filters = client.Some(json.RawMessage(filtersGen.Draw(t, "filters")))
		case "settings":
			plugin := cat.Plugins[0].ID
			if cfg != nil {
				plugin = cfg.Plugin
			}
			in.Config = client.Some(json.RawMessage(settingsGen(cat, plugin).Draw(t, "config")))
		}
		return in
	})
}
