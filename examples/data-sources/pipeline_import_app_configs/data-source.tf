# Every enabled config of the provider's project, by order and then id.
data "pipeline_import_app_configs" "enabled" {
  enabled = true
}

# Only the configs of one plugin (project_id would read another project).
data "pipeline_import_app_configs" "of_plugin" {
  plugin = 4
}

output "enabled_config_ids" {
  value = data.pipeline_import_app_configs.enabled.configs[*].id
}
