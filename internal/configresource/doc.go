// Package configresource is the resource pipeline_KIND_config and its list
// resource (DESIGN.md).
package configresource
