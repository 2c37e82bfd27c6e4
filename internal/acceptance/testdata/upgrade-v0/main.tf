variable "host" {
  type = string
}

provider "pipeline" {
  host       = var.host
  api_key    = "phx_local_full"
  project_id = "1"
}

# Every argument set.
resource "pipeline_transformation_config" "full" {
  plugin      = 1
  enabled     = true
  order       = 1
  name        = "GeoIP, every argument"
  description = "Enriches pageviews with their location."
  filters = jsonencode({
    events = [{ id = "$pageview", type = "events", name = "$pageview" }]
  })
  config = jsonencode({ locale = "en" })
  timeouts {
    create = "5m"
  }
}

# Name and description left to the plugin; no filters, no settings.
resource "pipeline_import_app_config" "fallback" {
  plugin = 3
  order  = 2
}

# An explicit project, filters the service rewrites (properties added),
# the description left to the plugin.
resource "pipeline_transformation_config" "normalised" {
  project_id = "1"
  plugin     = 2
  order      = 3
  name       = "Property Filter"
  filters    = jsonencode({ filter_test_accounts = true, actions = [{ id = "7", type = "actions" }] })
  config     = jsonencode({ properties = "$ip" })
}

# Settings and a description, the name left to the plugin.
resource "pipeline_import_app_config" "settings" {
  plugin      = 4
  order       = 4
  enabled     = true
  description = "Nightly BigQuery sync."
  config      = jsonencode({ dataset = "events" })
}
