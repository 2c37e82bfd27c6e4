# Terraform 1.12+. project_id defaults to the provider's.
import {
  to = pipeline_import_app_config.s3
  identity = {
    project_id = "1"
    id         = 57
  }
}
