# Terraform 1.14+. Migrate on demand, once:
#   terraform apply -invoke=action.pipeline_import_app_migrate.s3
# Every invocation makes another hog function.
action "pipeline_import_app_migrate" "s3" {
  config {
    config_id = 57
  }
}
