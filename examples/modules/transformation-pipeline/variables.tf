variable "project_id" {
  description = "Project of the configs. Defaults to the provider's project_id."
  type        = string
  default     = null
}

variable "transformations" {
  description = <<-EOT
    The project's transformation configs, in the order events pass through
    them. `key` names an entry for Terraform (keep it stable); `id` is the
    config's id in PostHog, which the root module imports; `config` holds
    the non-secret settings as a JSON object string (use `jsonencode`), and
    left out they are not managed.
  EOT
  type = list(object({
    key         = string
    id          = number
    plugin      = number
    name        = optional(string)
    description = optional(string)
    enabled     = optional(bool, true)
    config      = optional(string)
  }))

  validation {
    condition     = length(distinct([for t in var.transformations : t.key])) == length(var.transformations)
    error_message = "Each transformation needs a unique key."
  }

  validation {
    condition     = length(distinct([for t in var.transformations : t.id])) == length(var.transformations)
    error_message = "Each transformation needs a config id of its own."
  }

  validation {
    condition     = alltrue([for t in var.transformations : t.plugin > 0 && t.id > 0])
    error_message = "Each transformation's plugin and id must be positive ids."
  }
}
