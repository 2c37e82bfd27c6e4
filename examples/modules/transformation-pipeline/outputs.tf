output "ids" {
  description = "Config id of each transformation, by key."
  value       = { for k, c in pipeline_transformation_config.this : k => c.id }
}

output "ordered_ids" {
  description = "Config ids in pipeline order."
  value       = pipeline_transformation_order.this.config_ids
}

output "names" {
  description = "Name of each transformation as the service shows it (the plugin's name when none is set), by key."
  value       = { for k, c in pipeline_transformation_config.this : k => c.name }
}
