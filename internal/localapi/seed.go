package localapi

// The seeded projects, keys and plugin catalog. Their names and IDs are
// public: other packages' tests, the docs and users rely on them.

// Seeded key names, relied on by other packages' tests and the docs.
const (
	KeyFull  = "phx_local_full"
	KeyWrite = "phx_local_write"
	KeyRead  = "phx_local_read"
	KeyStar  = "phx_local_star"
	KeyOrg   = "phx_local_org"
)

// DefaultKeys returns the seeded personal API keys. KeyWrite and KeyRead
// are limited to project 1 (PostHog's scoped_teams), so the organization's
// plugin listings refuse them; the others reach every project of the
// organization, as their owner does, and may read those listings (KeyOrg
// is the scoped key for that, and the one that may also manage hog
// functions: a key for the way off the plugin API).
func DefaultKeys() []APIKey {
	return []APIKey{
		{Key: KeyFull, Projects: []int64{1, 2}},
		{Key: KeyWrite, Scopes: []string{"plugin:read", "plugin:write"}, Projects: []int64{1}, LimitedToProjects: true},
		{Key: KeyRead, Scopes: []string{"plugin:read"}, Projects: []int64{1}, LimitedToProjects: true},
		{Key: KeyStar, Scopes: []string{"*"}, Projects: []int64{1, 2}},
		{Key: KeyOrg, Scopes: []string{"plugin:read", "plugin:write", "hog_function:read", "hog_function:write"}, Projects: []int64{1, 2}},
	}
}

// The one organization, which holds every project and owns every plugin.
const (
	OrganizationID   = "01890000-0000-7000-8000-000000000001"
	OrganizationName = "Local"
)

// DefaultProjects returns the seeded project IDs.
func DefaultProjects() []int64 { return []int64{1, 2} }

// DefaultPlugins returns the seeded catalog. Its IDs are fixed: other
// packages' tests rely on them. Their urls are real plugins' (the README's
// table says which template each maps to, or why none): GeoIP's template
// is hidden and keeps none of its settings, Property Filter's and
// Semver Flattener's are deprecated, Taxonomy's is stable, Currency
// Normalizer's keeps one of its two settings; the import apps have none,
// and no seeded plugin has a migrator (all are transformations or import
// apps), so migrate refuses every seeded config.
//
// Plugins 5 to 9 hold the other forms the service's plugins take, in both
// collections: a description that is "" (5, 7) or null (6), a name that is
// "" (6) or null (7), and a config_schema in the older object form, whose
// apiKey the service does not treat as secret (8, 9). 6 and 7, written in
// the browser, have no url; 10 and 11 are inline plugins (inline:// urls),
// whose hog function templates add -plugin to the name.
func DefaultPlugins() []Plugin {
	return []Plugin{
		{
			ID:           1,
			Name:         text("GeoIP"),
			Description:  text("Enrich events with location data looked up from the client's IP address."),
			URL:          "https://github.com/PostHog/posthog-plugin-geoip",
			Icon:         "https://raw.githubusercontent.com/PostHog/posthog-plugin-geoip/main/logo.png",
			PluginType:   "repository",
			Tag:          "v1.4.0",
			LatestTag:    "v1.5.0", // an upgrade is available
			Capabilities: Capabilities{Methods: []string{"processEvent"}},
			ConfigSchema: ListSchema(
				ConfigField{Key: "api_key", Name: "Lookup API key", Type: "string", Secret: true},
				ConfigField{Key: "locale", Name: "Locale", Type: "string"},
			),
		},
		{
			ID:           2,
			Name:         text("Property Filter"),
			Description:  text("Set the listed event properties to null before the event is stored."),
			URL:          "https://github.com/PostHog/property-filter-plugin",
			PluginType:   "repository",
			Tag:          "v1.2.0",
			Capabilities: Capabilities{Methods: []string{"processEvent"}, Jobs: []string{"Reprocess"}},
			ConfigSchema: ListSchema(
				ConfigField{Key: "properties", Name: "Properties to filter out", Type: "string"},
			),
			PublicJobs: map[string]JobSpec{
				"Reprocess": {Payload: map[string]JobField{
					"since": {Type: "date", Required: true},
				}},
			},
			Frontend: propertyFilterFrontend,
		},
		{
			ID:           3,
			Name:         text("S3 Import"),
			Description:  text("Import events from files in an S3 bucket every hour."),
			URL:          "https://github.com/PostHog/s3-import-plugin",
			PluginType:   "repository",
			Tag:          "v0.3.1",
			Capabilities: Capabilities{Methods: []string{"setupPlugin"}, ScheduledTasks: []string{"runEveryHour"}, Jobs: []string{"Backfill"}},
			ConfigSchema: ListSchema(
				ConfigField{Key: "bucket", Name: "Bucket", Type: "string"},
				ConfigField{Key: "aws_secret_access_key", Name: "AWS secret access key", Type: "string", Secret: true},
			),
			PublicJobs: map[string]JobSpec{
				"Backfill": {Payload: map[string]JobField{
					"days":    {Type: "number", Required: true},
					"dry_run": {Type: "boolean"},
				}},
			},
		},
		{
			ID:           4,
			Name:         text("BigQuery Import"),
			Description:  text("Import rows from a BigQuery dataset every day."),
			URL:          "https://github.com/PostHog/bigquery-import-plugin",
			PluginType:   "repository",
			Tag:          "v0.2.0",
			Capabilities: Capabilities{ScheduledTasks: []string{"runEveryDay"}, Jobs: []string{"Sync now"}},
			ConfigSchema: ListSchema(
				ConfigField{Key: "dataset", Name: "Dataset", Type: "string"},
			),
			PublicJobs: map[string]JobSpec{
				"Sync now": {Payload: map[string]JobField{}},
			},
		},
		{
			ID:           5,
			Name:         text("Taxonomy Standardizer"),
			Description:  text(""), // installed from a repository without a description
			URL:          "https://github.com/PostHog/taxonomy-plugin",
			PluginType:   "repository",
			Tag:          "v1.0.2",
			Capabilities: Capabilities{Methods: []string{"processEvent"}},
			ConfigSchema: ListSchema(
				ConfigField{Key: "defaultNamingConvention", Name: "Naming convention", Type: "choice",
					Choices: []string{"camelCase", "PascalCase", "snake_case", "kebab-case", "spaces in between"}},
			),
		},
		{
			// Written in the browser and never named or described.
			ID:           6,
			Name:         text(""),
			Description:  nil,
			PluginType:   "source",
			Capabilities: Capabilities{Methods: []string{"processEvent"}},
		},
		{
			// Written in the browser: an import app without a name.
			ID:           7,
			Name:         nil,
			Description:  text(""),
			PluginType:   "source",
			Capabilities: Capabilities{ScheduledTasks: []string{"runEveryMinute"}},
			ConfigSchema: ListSchema(ConfigField{Key: "endpoint", Name: "Endpoint", Type: "string"}),
		},
		{
			// An older plugin: its config_schema is an object by key.
			ID:           8,
			Name:         text("Currency Normalizer"),
			Description:  text("Convert event amounts into one currency."),
			URL:          "https://github.com/PostHog/currency-normalization-plugin",
			PluginType:   "repository",
			Tag:          "v0.1.0",
			Capabilities: Capabilities{Methods: []string{"processEvent"}},
			ConfigSchema: ObjectSchema(
				ConfigField{Key: "apiKey", Name: "Open Exchange Rates API key", Type: "string", Secret: true},
				ConfigField{Key: "normalizedCurrency", Name: "Currency to convert to", Type: "string"},
			),
		},
		{
			// An older import app, its config_schema an object by key.
			ID:           9,
			Name:         text("Mailchimp Import"),
			Description:  text("Import Mailchimp audience events every hour."),
			URL:          "https://github.com/PostHog/mailchimp-import-plugin",
			PluginType:   "repository",
			Tag:          "v0.0.3",
			Capabilities: Capabilities{Methods: []string{"setupPlugin"}, ScheduledTasks: []string{"runEveryHour"}},
			ConfigSchema: ObjectSchema(
				ConfigField{Key: "apiKey", Name: "Mailchimp API key", Type: "string", Secret: true},
				ConfigField{Key: "listId", Name: "Audience ID", Type: "string"},
			),
		},
		{
			ID:           10,
			Name:         text("Semver Flattener"),
			Description:  text("Split semantic version properties into their major, minor and patch parts."),
			URL:          "inline://semver-flattener",
			PluginType:   "inline",
			Capabilities: Capabilities{Methods: []string{"processEvent"}},
			ConfigSchema: ListSchema(
				ConfigField{Key: "properties", Name: "Properties to flatten, comma-separated", Type: "string", Required: true},
			),
		},
		{
			ID:           11,
			Name:         text("User Agent Populator"),
			Description:  text("Add browser and operating system properties parsed from the user agent."),
			URL:          "inline://user-agent",
			PluginType:   "inline",
			Capabilities: Capabilities{Methods: []string{"processEvent"}},
			ConfigSchema: ListSchema(
				ConfigField{Key: "overrideUserAgentDetails", Name: "Override existing details", Type: "choice",
					Choices: []string{"true", "false"}, Default: []byte(`"false"`)},
			),
		},
	}
}

// text returns a plugin's name or description.
func text(s string) *string { return &s }

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
