# The configs leave order unset: the order resource owns it, and neither
# fights the other.
resource "pipeline_import_app_config" "first" {
  plugin  = 3
  enabled = true
}

resource "pipeline_import_app_config" "second" {
  plugin  = 4
  enabled = true
}

# Disabled configs belong in the list too: they keep their place.
resource "pipeline_import_app_config" "paused" {
  plugin  = 3
  enabled = false
}

# The configs Terraform manages, first runs first. Configs added in the UI
# run after them (unlisted_configs = "last", the default); "keep" leaves
# them where they are. Works with a scoped API key too.
resource "pipeline_import_app_order" "this" {
  config_ids = [
    pipeline_import_app_config.first.id,
    pipeline_import_app_config.paused.id,
    pipeline_import_app_config.second.id,
  ]
}
