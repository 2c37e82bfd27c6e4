# One config per entry, ordered by its position in the list (first = 1).
# Entries are keyed by `key`, so inserting or moving an entry re-orders the
# configs in place instead of re-creating them.
locals {
  transformations = {
    for i, t in var.transformations : t.key => merge(t, { order = i + 1 })
  }
}

resource "pipeline_transformation_config" "this" {
  for_each = local.transformations

  project_id  = var.project_id
  plugin      = each.value.plugin
  enabled     = each.value.enabled
  order       = each.value.order
  name        = each.value.name
  description = each.value.description
  filters     = each.value.filters
}
