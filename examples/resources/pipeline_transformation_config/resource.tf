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
