# Terraform 1.12+: import by resource identity, the project. project_id
# defaults to the provider's.
import {
  to = pipeline_import_app_order.this
  identity = {
    project_id = "1"
  }
}
