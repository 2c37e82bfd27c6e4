# One transformation config by id. A config the service has soft-deleted is still
# shown, with deleted = true.
data "pipeline_transformation_config" "this" {
  id = 42
}

output "plugin_name" {
  value = jsondecode(data.pipeline_transformation_config.this.plugin_info).name
}
