// Package datasources holds the data sources of each kind: _config,
// _configs, _config_frontend and _plugins, and the record attributes they
// show (schema.go). Plural, so as not to shadow the framework's datasource.
package datasources
