# Step 1: migrate each config. The service makes a hog function of it and
# disables the config; the configs stay as they are in this file.
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

resource "pipeline_transformation_migration" "geoip" {
  config_id = pipeline_transformation_config.geoip.id
}

resource "pipeline_import_app_migration" "s3" {
  config_id = pipeline_import_app_config.s3.id
}

# The hog functions' ids, to import them into the official provider.
output "hog_function_ids" {
  value = {
    geoip = pipeline_transformation_migration.geoip.hog_function_id
    s3    = pipeline_import_app_migration.s3.hog_function_id
  }
}
