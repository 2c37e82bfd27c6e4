// Package configresource is the resource pipeline_KIND_config and its list
// resource, and owns a config record as every construct shows it: the one
// mapper from the API (model.go), and per attribute its schema, plan, request
// and reading (text.go, filters.go, settings.go). See DESIGN.md.
package configresource
