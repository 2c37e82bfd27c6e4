# One import app config by id. A config the service has soft-deleted is still
# shown, with deleted = true.
data "pipeline_import_app_config" "this" {
  id = 42
}

output "plugin_name" {
  value = jsondecode(data.pipeline_import_app_config.this.plugin_info).name
}
