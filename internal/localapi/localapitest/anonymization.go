package localapitest

import "github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"

// AnonymizationPlugin is the plugin WithAnonymization adds: a transformation
// at the url of PostHog's anonymization plugin, whose (deprecated) template
// keeps a secret (salt) and a plain setting (privateFields) and drops the
// third setting (legacyOption). No seeded plugin's template keeps a secret.
const AnonymizationPlugin = 20

// WithAnonymization returns the seeded catalog and AnonymizationPlugin.
func WithAnonymization() []localapi.Plugin {
	name, description := "Anonymization", "Hashes personal fields of events."
	return append(localapi.DefaultPlugins(), localapi.Plugin{
		ID: AnonymizationPlugin, Name: &name, Description: &description,
		URL: "https://github.com/PostHog/posthog-anonymization", PluginType: "repository",
		Capabilities: localapi.Capabilities{Methods: []string{"processEvent"}},
		ConfigSchema: localapi.ListSchema(
			localapi.ConfigField{Key: "salt", Name: "Salt", Type: "string", Secret: true},
			localapi.ConfigField{Key: "privateFields", Name: "Fields to hash", Type: "string"},
			localapi.ConfigField{Key: "legacyOption", Name: "An option the template dropped", Type: "string"},
		),
	})
}
