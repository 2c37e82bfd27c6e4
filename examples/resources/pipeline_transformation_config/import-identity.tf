# Terraform 1.12+. project_id defaults to the provider's.
import {
  to = pipeline_transformation_config.geoip
  identity = {
    project_id = "1"
    id         = 42
  }
}
