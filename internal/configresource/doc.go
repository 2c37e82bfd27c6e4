// Package configresource is the resource pipeline_KIND_config (DESIGN.md).
package configresource
