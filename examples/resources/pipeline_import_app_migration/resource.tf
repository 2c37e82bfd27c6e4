# A config that exists on a service that no longer creates plugin configs
# (since July 2025).
resource "pipeline_import_app_config" "s3" {
  plugin  = 3
  enabled = true
}

# Turns it into a hog function once, when created; the service disables the
# config. Destroying this resource undoes nothing.
resource "pipeline_import_app_migration" "s3" {
  config_id = pipeline_import_app_config.s3.id
}

# The id to import the hog function into the official PostHog provider.
output "s3_hog_function_id" {
  value = pipeline_import_app_migration.s3.hog_function_id
}
