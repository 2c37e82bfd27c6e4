// Package datasources holds the data sources of each kind:
// pipeline_KIND_config (one record by id, config.go), pipeline_KIND_configs
// (every record of the collection, narrowed, configs.go) and
// pipeline_KIND_config_frontend (the frontend of a config's plugin,
// frontend.go), with the record attributes they show (schema.go), and
// pipeline_KIND_plugins (the organization's plugins of the kind, to find a
// plugin's id by name or url, plugins.go). Named in
// the plural so that it does not shadow the framework's datasource package.
package datasources
