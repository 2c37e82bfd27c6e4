# Every enabled config of the provider's project, by order and then id.
data "pipeline_transformation_configs" "enabled" {
  enabled = true
}

# Only the configs of one plugin, in another project.
data "pipeline_transformation_configs" "of_plugin" {
  project_id = "2"
  plugin     = 2
}

output "enabled_config_ids" {
  value = data.pipeline_transformation_configs.enabled.configs[*].id
}
