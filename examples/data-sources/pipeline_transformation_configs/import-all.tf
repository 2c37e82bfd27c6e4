# Bring every transformation config of the project under Terraform at once
# (Terraform 1.7+; on 1.14+ `terraform query` can write this for you).
locals {
  existing = { for c in data.pipeline_transformation_configs.all.configs : tostring(c.id) => c }
}

data "pipeline_transformation_configs" "all" {}

import {
  for_each = local.existing
  to       = pipeline_transformation_config.existing[each.key]
  id       = each.key
}

resource "pipeline_transformation_config" "existing" {
  for_each = local.existing

  plugin      = each.value.plugin
  enabled     = each.value.enabled
  name        = each.value.name
  description = each.value.description
  config      = each.value.config
}
