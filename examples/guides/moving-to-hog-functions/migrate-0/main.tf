# The configs as Terraform manages them before the move.
resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  enabled = true
  name    = "GeoIP"
}

resource "pipeline_import_app_config" "s3" {
  plugin  = 3
  enabled = true
  name    = "S3 Import"
}
