# Import raw events from S3, disabled until the bucket is ready.
resource "pipeline_import_app_config" "s3" {
  plugin      = 3
  enabled     = false
  name        = "S3 raw events"
  description = "Hourly import of the raw event export."

  # Non-secret settings, kept in state and compared by the keys set here.
  config = jsonencode({
    bucket = "raw-events-export"
  })

  # Secret settings: write-only (Terraform 1.11+), never in plan or state.
  # Sent on create and whenever secret_config_wo_version changes.
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

# A second import app in another project, named after its plugin.
resource "pipeline_import_app_config" "bigquery" {
  project_id = "2"
  plugin     = 4
  enabled    = true
  order      = 1
}

# The plugin's settings schema (and its jobs) are not kept in the
# resource's state: the data source with the same id shows the whole record.
data "pipeline_import_app_config" "s3" {
  id = pipeline_import_app_config.s3.id
}

output "s3_secret_settings" {
  value = [for f in jsondecode(data.pipeline_import_app_config.s3.plugin_info).config_schema : f.key if try(f.secret, false)]
}
