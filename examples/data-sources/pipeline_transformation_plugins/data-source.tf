# The transformation plugins the project can use.
data "pipeline_transformation_plugins" "all" {}

# A plugin's id by name, for a config's `plugin`:
#   plugin = data.pipeline_transformation_plugins.all.by_name["GeoIP"]
output "geoip_plugin_id" {
  value = data.pipeline_transformation_plugins.all.by_name["GeoIP"]
}

# The settings a plugin takes, and which of them are secret.
output "geoip_settings" {
  value = {
    for p in data.pipeline_transformation_plugins.all.plugins :
    p.name => { settings = p.setting_keys, secrets = p.secret_keys } if p.name == "GeoIP"
  }
}
