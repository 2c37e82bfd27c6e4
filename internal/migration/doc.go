// Package migration moves configs off the plugin-config API: the resource
// pipeline_KIND_migration (resource.go), which turns a config into a hog
// function once, when it is created, and the action pipeline_KIND_migrate
// (action.go, Terraform 1.14+), which does so whenever it is invoked. Both
// check the config at plan time and make the same call (call.go) to the
// migrate action of services since July 2025 (the notes' "Service
// generations", generation 2). A migration cannot be undone and every call
// makes a hog function, so neither ever sends it twice for one create or
// invocation.
package migration
