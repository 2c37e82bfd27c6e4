# Enrich production pageviews with GeoIP data, first in the pipeline.
resource "pipeline_transformation_config" "geoip" {
  plugin      = 1
  enabled     = true
  order       = 1
  name        = "GeoIP enrichment"
  description = "Adds country and city to pageviews."

  # Compared the way the service stores it: entries without "properties"
  # get an empty list, so this causes no diff after apply.
  filters = jsonencode({
    events               = [{ id = "$pageview", name = "$pageview", type = "events" }]
    filter_test_accounts = true
  })

  # The plugin's settings. Non-secret ones go in config, stored in state.
  config = jsonencode({
    locale = "en"
  })

  # Secret ones (those the plugin's config_schema marks secret) go in the
  # write-only secret_config_wo: sent to the service, never stored in plan
  # or state (Terraform 1.11+). Bump the version to send them again, e.g.
  # after rotating the key.
  secret_config_wo = jsonencode({
    api_key = var.geoip_api_key
  })
  secret_config_wo_version = 1
}

# Ephemeral (Terraform 1.10+): the key is kept out of the plan file too.
variable "geoip_api_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

# Name and description left out: the service shows the plugin's own. Order
# left out: a new config gets 0 and later changes made elsewhere are kept.
resource "pipeline_transformation_config" "property_filter" {
  plugin  = 2
  enabled = true

  timeouts {
    create = "2m"
  }
}

# What describes the plugin (its name, settings schema, public jobs) and what
# the service measures (delivery_rate_24h) are not kept in the resource's
# state: the data source with the same id shows the whole record.
data "pipeline_transformation_config" "geoip" {
  id = pipeline_transformation_config.geoip.id
}

output "geoip_public_jobs" {
  value = keys(jsondecode(data.pipeline_transformation_config.geoip.plugin_info).public_jobs)
}
