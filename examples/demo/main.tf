# The configuration `make demo` applies against the local API: a few
# transformation and import-app configs of one project. The provider reads
# host, api_key and project_id from POSTHOG_HOST, POSTHOG_API_KEY and
# POSTHOG_PROJECT_ID, which the demo script sets.
terraform {
  required_providers {
    pipeline = {
      source = "pipelinecfg/pipeline"
    }
  }
}

provider "pipeline" {}

# Enrich events with GeoIP data, for production traffic only.
resource "pipeline_transformation_config" "geoip" {
  plugin      = 1
  enabled     = true
  order       = 1
  name        = "GeoIP enrichment"
  description = "Adds country and city to every event."
  filters = jsonencode({
    events = [{ id = "$pageview", name = "$pageview", type = "events" }]
  })
}

# Drop internal properties; name and description come from the plugin.
resource "pipeline_transformation_config" "property_filter" {
  plugin  = 2
  enabled = true
  order   = 2
}

# Import raw events from S3 every hour, disabled until the bucket is ready.
resource "pipeline_import_app_config" "s3" {
  plugin = 3
  order  = 1
  name   = "S3 raw events"
}

output "transformations" {
  value = {
    for r in [pipeline_transformation_config.geoip, pipeline_transformation_config.property_filter] :
    r.id => { name = r.name, order = r.order, enabled = r.enabled }
  }
}

output "import_apps" {
  value = { (pipeline_import_app_config.s3.id) = pipeline_import_app_config.s3.name }
}
