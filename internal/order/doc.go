// Package order is the resource pipeline_KIND_order: the sequence of the
// configs of a collection in one project that config_ids lists, the others
// placed as unlisted_configs says (resource.go, schema.go, and the state
// upgrade from version 0 in upgrade.go), written by one rearrange or
// per-config order updates, and the sequence arithmetic that decides what
// to write, with the conversions of sequences to and from Terraform values
// (sequence.go).
package order
