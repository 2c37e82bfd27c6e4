# One config per entry, keyed by `key`: the root module's import blocks take
# each over by its id, since PostHog makes no new configs. The configs leave
# `order` unset: the order resource below owns it.
locals {
  transformations = { for t in var.transformations : t.key => t }
}

resource "pipeline_transformation_config" "this" {
  for_each = local.transformations

  project_id  = var.project_id
  plugin      = each.value.plugin
  enabled     = each.value.enabled
  name        = each.value.name
  description = each.value.description
  config      = each.value.config
}

# The configs run in the list's order; others of the project run after them.
resource "pipeline_transformation_order" "this" {
  project_id = var.project_id
  config_ids = [for t in var.transformations : pipeline_transformation_config.this[t.key].id]
}
