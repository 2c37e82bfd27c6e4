package localapi

// The seeded projects, keys and plugin catalog. Their names and IDs are
// public: other packages' tests, the docs and users rely on them.

// Seeded key names, relied on by other packages' tests and the docs.
const (
	KeyFull  = "phx_local_full"
	KeyWrite = "phx_local_write"
	KeyRead  = "phx_local_read"
	KeyStar  = "phx_local_star"
)

// DefaultKeys returns the seeded personal API keys.
func DefaultKeys() []APIKey {
	return []APIKey{
		{Key: KeyFull, Projects: []int64{1, 2}},
		{Key: KeyWrite, Scopes: []string{"plugin:read", "plugin:write"}, Projects: []int64{1}},
		{Key: KeyRead, Scopes: []string{"plugin:read"}, Projects: []int64{1}},
		{Key: KeyStar, Scopes: []string{"*"}, Projects: []int64{1, 2}},
	}
}

// DefaultProjects returns the seeded project IDs.
func DefaultProjects() []int64 { return []int64{1, 2} }

// DefaultPlugins returns the seeded catalog. Its IDs are fixed: other
// packages' tests rely on them. GeoIP (transformation) and S3 Import
// (import app) have a migrator; Property Filter and BigQuery Import have
// none, so generation 2 refuses to create or migrate their configs.
func DefaultPlugins() []Plugin {
	return []Plugin{
		{
			ID:           1,
			Name:         "GeoIP",
			Description:  "Enrich events with location data looked up from the client's IP address.",
			URL:          "https://github.com/PostHog/posthog-plugin-geoip",
			PluginType:   "repository",
			Tag:          "v1.4.0",
			HasMigrator:  true,
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
			HasMigrator:  true,
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
