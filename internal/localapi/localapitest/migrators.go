package localapitest

import "github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"

// MigratorPlugins are, by collection, the plugins WithMigrators adds: each
// at SendGrid's url, which has a migrator. No real plugin with a migrator
// shows in either collection (PostHog's migrators are destinations'), so
// these do, for tests of migrate: 12 a transformation, 13 an import app.
var MigratorPlugins = map[string]int64{localapi.TransformationConfigs: 12, localapi.ImportAppConfigs: 13}

// MigratorSettings are settings of a MigratorPlugins config that migrate
// takes: the API key the migrator's template requires.
const MigratorSettings = `{"sendgridApiKey": "sg-key"}`

// WithMigrators returns the seeded catalog and the plugins of
// MigratorPlugins, whose config_schema is the SendGrid plugin's.
func WithMigrators() []localapi.Plugin {
	plugins := localapi.DefaultPlugins()
	for _, c := range []struct {
		id   int64
		caps localapi.Capabilities
	}{
		{MigratorPlugins[localapi.TransformationConfigs], localapi.Capabilities{Methods: []string{"onEvent", "processEvent"}}},
		{MigratorPlugins[localapi.ImportAppConfigs], localapi.Capabilities{Methods: []string{"onEvent"}, ScheduledTasks: []string{"runEveryHour"}}},
	} {
		name, description := "Sendgrid", "Send emails and user data to Sendgrid when you identify users using PostHog."
		plugins = append(plugins, localapi.Plugin{
			ID: c.id, Name: &name, Description: &description,
			URL: "https://github.com/PostHog/sendgrid-plugin", PluginType: "repository", Capabilities: c.caps,
			ConfigSchema: localapi.ListSchema(
				localapi.ConfigField{Key: "sendgridApiKey", Name: "Sendgrid API Key", Type: "string", Secret: true, Required: true},
				localapi.ConfigField{Key: "customFields", Name: "Custom fields", Type: "string"},
			),
		})
	}
	return plugins
}
