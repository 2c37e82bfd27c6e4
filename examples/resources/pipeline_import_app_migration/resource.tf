# Turns config 57 into a hog function once; PostHog disables the config.
resource "pipeline_import_app_migration" "s3" {
  config_id = 57
}

# The id to import the hog function into the official PostHog provider.
output "s3_hog_function_id" {
  value = pipeline_import_app_migration.s3.hog_function_id
}
