// Package framework holds what every construct of the provider shares, on
// top of terraform-plugin-framework: the data the provider hands them
// (providerdata.go), small base structs to embed for Metadata and Configure
// (base.go, action_base.go; in the spirit of terraform-provider-aws's
// internal/framework), the project_id every construct takes and its one
// resolution (project.go), operation time limits (operation.go), API errors
// as diagnostics (errors.go) and the custom actions' key refusal with what
// to do instead (custom_action.go), what users are told about the later
// service generations (generations.go), the JSON-object validator
// (json_object.go), and small value helpers (values.go).
package framework
