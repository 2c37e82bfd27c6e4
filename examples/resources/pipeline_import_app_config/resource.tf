# Import raw events from S3, disabled until the bucket is ready.
resource "pipeline_import_app_config" "s3" {
  plugin      = 3
  enabled     = false
  name        = "S3 raw events"
  description = "Hourly import of the raw event export."
}

# A second import app in another project, named after its plugin.
resource "pipeline_import_app_config" "bigquery" {
  project_id = "2"
  plugin     = 4
  enabled    = true
  order      = 1
}
