# PostHog makes no new configs: take the ones to order over by id.
import {
  to = pipeline_transformation_config.geoip
  id = "42"
}

import {
  to = pipeline_transformation_config.filter
  id = "43"
}

import {
  to = pipeline_transformation_config.paused
  id = "44"
}

# They leave `order` unset: the order resource owns it.
resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  name    = "GeoIP enrichment"
  enabled = true
}

resource "pipeline_transformation_config" "filter" {
  plugin  = 2
  name    = "Drop internal properties"
  enabled = true
}

# Disabled configs belong in the list too: they keep their place.
resource "pipeline_transformation_config" "paused" {
  plugin  = 1
  name    = "GeoIP, second pass"
  enabled = false
}

# First runs first. Configs not listed, such as ones added in the UI, run
# after these (unlisted_configs = "last", the default); "keep" leaves them
# where they are.
resource "pipeline_transformation_order" "this" {
  config_ids = [
    pipeline_transformation_config.geoip.id,
    pipeline_transformation_config.paused.id,
    pipeline_transformation_config.filter.id,
  ]
}
