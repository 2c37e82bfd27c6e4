# One config by id, with what the resource does not keep.
data "pipeline_import_app_config" "this" {
  id = 57
}

# The plugin's settings, and which of them are secret.
output "settings" {
  value = [for f in jsondecode(data.pipeline_import_app_config.this.plugin_info).config_schema : { key = f.key, secret = try(f.secret, false) }]
}
