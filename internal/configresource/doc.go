// Package configresource is the resource pipeline_KIND_config: one config
// record of a kind's collection. resource.go holds the CRUD, plan.go the
// whole plan, move.go the moves from the generic REST providers;
// creates go through package createonce.
package configresource
