data "pipeline_transformation_plugins" "all" {}

# PostHog makes no new configs: take over one that exists, by its id.
import {
  to = pipeline_transformation_config.geoip
  id = "42"
}

# Enrich events with GeoIP data. `order` is left out: it stays where it is,
# or a pipeline_transformation_order sets it.
resource "pipeline_transformation_config" "geoip" {
  plugin      = data.pipeline_transformation_plugins.all.by_name["GeoIP"]
  enabled     = true
  name        = "GeoIP enrichment"
  description = "Adds country and city to every event."

  # Every non-secret setting: one added in PostHog's UI is removed.
  config = jsonencode({
    locale = "en"
  })

  # Secret settings, never in plan or state: sent once after the import,
  # then whenever the version changes.
  secret_config_wo = jsonencode({
    api_key = var.geoip_api_key
  })
  secret_config_wo_version = 1
}

variable "geoip_api_key" {
  type      = string
  sensitive = true
  ephemeral = true
}
