# Every transformation plugin the organization can use.
data "pipeline_transformation_plugins" "all" {}

# A config of the GeoIP plugin, found by name rather than by id.
resource "pipeline_transformation_config" "geoip" {
  plugin = data.pipeline_transformation_plugins.all.by_name["GeoIP"]
  config = jsonencode({ locale = "en" })
}

# The settings a plugin takes, and which of them are secret.
output "geoip_settings" {
  value = {
    for p in data.pipeline_transformation_plugins.all.plugins :
    p.name => { settings = p.setting_keys, secrets = p.secret_keys } if p.name == "GeoIP"
  }
}
