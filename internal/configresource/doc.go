// Package configresource is the resource pipeline_KIND_config: one config
// record of a kind's collection. resource.go holds the CRUD in Terraform's
// order (Create, Read, Update, Delete) and their helpers, import.go the
// import, move.go the moves from the generic REST providers, upgrade.go the
// state upgrade; schema.go and model.go the schema, model and identity;
// plan.go the whole plan (ModifyPlan); requests.go what is sent;
// plugin_facts.go what the plan keeps of the plugin, plugin_check.go and
// settings_validate.go the checks of plugin settings against its schema;
// generations.go what changes on services that no longer store configs.
// Creates go through package createonce.
package configresource
