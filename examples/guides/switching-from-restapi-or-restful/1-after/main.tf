# After: the same configs as this provider's resources. The collection in
# the peer's path picks the resource type; the body's keys become its
# arguments, but filters, which PostHog no longer has. The peer's provider
# block and required_providers entry go.
resource "pipeline_transformation_config" "geo" {
  plugin  = 1
  order   = 1
  enabled = true
  name    = "GeoIP, moved"
  # Non-secret settings; secrets go in secret_config_wo (see the guide).
  config = jsonencode({ locale = "en" })
}

resource "pipeline_import_app_config" "bq" {
  plugin  = 4
  order   = 1
  enabled = true
}
