// Package job runs public jobs of a config's plugin: the resource
// pipeline_KIND_job (resource.go, schema.go), which runs one on create, and
// the action pipeline_KIND_run_job (action.go, Terraform 1.14+), which runs
// one whenever it is invoked. Both judge the job against the plugin's public
// jobs at plan time and make the same call (check.go).
package job
