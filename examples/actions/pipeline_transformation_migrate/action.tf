# Terraform 1.14+. Migrate on demand, once:
#   terraform apply -invoke=action.pipeline_transformation_migrate.geoip
# Every invocation makes another hog function.
action "pipeline_transformation_migrate" "geoip" {
  config {
    config_id = 42
  }
}
