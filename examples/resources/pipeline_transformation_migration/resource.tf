# A config that exists on a service that no longer creates plugin configs
# (since July 2025).
resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  enabled = true
}

# Turns it into a hog function once, when created; the service disables the
# config. Destroying this resource undoes nothing.
resource "pipeline_transformation_migration" "geoip" {
  config_id = pipeline_transformation_config.geoip.id
}

# The id to import the hog function into the official PostHog provider.
output "geoip_hog_function_id" {
  value = pipeline_transformation_migration.geoip.hog_function_id
}
