# Terraform 1.14+: terraform query lists the project's import app configs;
#   terraform query -generate-config-out=generated.tf
# writes an import block and a resource block for each.
list "pipeline_import_app_config" "all" {
  provider         = pipeline
  include_resource = true
}

# Narrowed: the enabled configs of one plugin.
list "pipeline_import_app_config" "enabled" {
  provider = pipeline

  config {
    enabled = true
    plugin  = 3
  }
}
