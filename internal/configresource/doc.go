// Package configresource is the resource pipeline_KIND_config: one config
// record of a kind's collection, with its schema (schema.go), model and
// identity (model.go), plan logic (plan.go for name, description and
// filters, settings_plan.go for the plugin settings), the requests it sends
// (requests.go), CRUD (resource.go, read.go), import (import.go) and the
// checks of plugin settings against the plugin's secret keys
// (settings_validate.go). Creates go through package createonce.
package configresource
