# PostHog makes no new configs: take the ones to order over by id.
import {
  to = pipeline_import_app_config.s3
  id = "57"
}

import {
  to = pipeline_import_app_config.bigquery
  id = "58"
}

import {
  to = pipeline_import_app_config.paused
  id = "59"
}

# They leave `order` unset: the order resource owns it.
resource "pipeline_import_app_config" "s3" {
  plugin  = 3
  name    = "S3 raw events"
  enabled = true
}

resource "pipeline_import_app_config" "bigquery" {
  plugin  = 4
  name    = "BigQuery daily sync"
  enabled = true
}

# Disabled configs belong in the list too: they keep their place.
resource "pipeline_import_app_config" "paused" {
  plugin  = 3
  name    = "S3 backfill"
  enabled = false
}

# First runs first. Configs not listed, such as ones added in the UI, run
# after these (unlisted_configs = "last", the default); "keep" leaves them
# where they are.
resource "pipeline_import_app_order" "this" {
  config_ids = [
    pipeline_import_app_config.s3.id,
    pipeline_import_app_config.paused.id,
    pipeline_import_app_config.bigquery.id,
  ]
}
