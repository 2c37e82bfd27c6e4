# Turns config 42 into a hog function once; PostHog disables the config.
resource "pipeline_transformation_migration" "geoip" {
  config_id = 42
}

# The id to import the hog function into the official PostHog provider.
output "geoip_hog_function_id" {
  value = pipeline_transformation_migration.geoip.hog_function_id
}
