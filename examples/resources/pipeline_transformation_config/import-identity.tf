# (Named import-identity.tf, not import-by-identity.tf: tfplugindocs on
# Terraform below 1.12 sees no identity schema and refuses the latter.)
# Terraform 1.12+: import by resource identity. project_id defaults to the
# provider's.
import {
  to = pipeline_transformation_config.geoip
  identity = {
    project_id = "1"
    id         = 42
  }
}
