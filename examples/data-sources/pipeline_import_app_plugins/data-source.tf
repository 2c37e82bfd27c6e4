# The import app plugins the project can use.
data "pipeline_import_app_plugins" "all" {}

# A plugin's id by its repository, for a config's `plugin`:
#   plugin = data.pipeline_import_app_plugins.all.by_url["https://github.com/PostHog/s3-import-plugin"]
output "s3_import_plugin_id" {
  value = data.pipeline_import_app_plugins.all.by_url["https://github.com/PostHog/s3-import-plugin"]
}

# The settings a plugin takes, and which of them are secret.
output "s3_import_settings" {
  value = {
    for p in data.pipeline_import_app_plugins.all.plugins :
    p.name => { settings = p.setting_keys, secrets = p.secret_keys } if p.name == "S3 Import"
  }
}
