data "pipeline_import_app_plugins" "all" {}

# PostHog makes no new configs: take over one that exists, by its id.
import {
  to = pipeline_import_app_config.s3
  id = "57"
}

# Import raw events from S3, off until the bucket is ready.
resource "pipeline_import_app_config" "s3" {
  plugin      = data.pipeline_import_app_plugins.all.by_name["S3 Import"]
  enabled     = false
  name        = "S3 raw events"
  description = "Hourly import of the raw event export."

  # Every non-secret setting: one added in PostHog's UI is removed.
  config = jsonencode({
    bucket = "raw-events-export"
  })

  # Secret settings, never in plan or state: sent once after the import,
  # then whenever the version changes.
  secret_config_wo = jsonencode({
    aws_secret_access_key = var.s3_secret_access_key
  })
  secret_config_wo_version = 1
}

variable "s3_secret_access_key" {
  type      = string
  sensitive = true
  ephemeral = true
}
