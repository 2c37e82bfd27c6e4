# A warning in each plan while a config is not in config_ids (Terraform 1.5+).
check "every_transformation_config_listed" {
  assert {
    condition     = length(pipeline_transformation_order.this.unlisted_config_ids) == 0
    error_message = "Transformation configs not in config_ids: ${join(", ", pipeline_transformation_order.this.unlisted_config_ids)}."
  }
}
