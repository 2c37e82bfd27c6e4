# Every enabled config of the provider's project, by order and then id.
data "pipeline_transformation_configs" "enabled" {
  enabled = true
}

# Only the configs of one plugin (project_id would read another project).
data "pipeline_transformation_configs" "of_plugin" {
  plugin = 2
}

output "enabled_config_ids" {
  value = data.pipeline_transformation_configs.enabled.configs[*].id
}
