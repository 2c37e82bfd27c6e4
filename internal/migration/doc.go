// Package migration moves configs off the plugin-config API: the resource
// pipeline_KIND_migration and the action pipeline_KIND_migrate (migrate.go,
// schema.go) turn a config into a hog function through the migrate action
// of services since July 2025 (call.go). Every call makes a hog function, so
// neither ever sends it twice for one create or invocation.
package migration
