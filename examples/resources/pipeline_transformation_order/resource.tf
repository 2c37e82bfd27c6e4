# The configs leave order unset: the order resource owns it, and neither
# fights the other.
resource "pipeline_transformation_config" "first" {
  plugin  = 1
  enabled = true
}

resource "pipeline_transformation_config" "second" {
  plugin  = 2
  enabled = true
}

# Disabled configs belong in the list too: they keep their place.
resource "pipeline_transformation_config" "paused" {
  plugin  = 1
  enabled = false
}

# The configs Terraform manages, first runs first. Configs added in the UI
# run after them (unlisted_configs = "last", the default); "keep" leaves
# them where they are. Works with a scoped API key too.
resource "pipeline_transformation_order" "this" {
  config_ids = [
    pipeline_transformation_config.first.id,
    pipeline_transformation_config.paused.id,
    pipeline_transformation_config.second.id,
  ]
}
