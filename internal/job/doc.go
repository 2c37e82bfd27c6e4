// Package job is the resource pipeline_KIND_job and the action
// pipeline_KIND_run_job (run.go, schema.go, check.go), and Event (event.go):
// one resource and action pair per thing done to a config, which the
// migration package builds on too.
package job
