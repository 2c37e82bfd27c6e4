// Package order is the resource pipeline_KIND_order: the sequence of a
// collection's configs in one project (resource.go, schema.go, upgrade.go)
// and the arithmetic that decides what to write (sequence.go).
package order
