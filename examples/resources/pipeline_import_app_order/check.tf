# A warning in each plan while a config is not in config_ids (Terraform 1.5+).
check "every_import_app_config_listed" {
  assert {
    condition     = length(pipeline_import_app_order.this.unlisted_config_ids) == 0
    error_message = "Import app configs not in config_ids: ${join(", ", pipeline_import_app_order.this.unlisted_config_ids)}."
  }
}
