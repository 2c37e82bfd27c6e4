// Package order is the resource pipeline_KIND_order: the sequence of all
// configs of a collection in one project (resource.go, schema.go), written
// by one rearrange or per-config order updates, and the sequence
// arithmetic that decides what to write, with the conversions of sequences
// to and from Terraform values (sequence.go).
package order
