variable "project_id" {
  description = "Project of the configs. Defaults to the provider's project_id."
  type        = string
  default     = null
}

variable "transformations" {
  description = <<-EOT
    The project's transformations, in the order events pass through them.
    `key` names an entry for Terraform (keep it stable: changing it replaces
    the config); `filters` is a JSON object string (use `jsonencode`).
  EOT
  type = list(object({
    key         = string
    plugin      = number
    name        = optional(string)
    description = optional(string)
    enabled     = optional(bool, true)
    filters     = optional(string)
  }))

  validation {
    condition     = length(distinct([for t in var.transformations : t.key])) == length(var.transformations)
    error_message = "Each transformation needs a unique key."
  }

  validation {
    condition     = alltrue([for t in var.transformations : t.plugin > 0])
    error_message = "Each transformation's plugin must be a positive plugin id."
  }
}
