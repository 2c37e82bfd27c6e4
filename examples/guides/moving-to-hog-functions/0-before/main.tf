# The configs to move, as Terraform manages them (imported: PostHog makes
# no new configs). The plugin ids are examples: yours differ.
resource "pipeline_transformation_config" "taxonomy" {
  plugin  = 5
  enabled = true
  order   = 1
  config  = jsonencode({ defaultNamingConvention = "snake_case" })
}

resource "pipeline_transformation_config" "anonymization" {
  plugin  = 20
  enabled = true
  order   = 2
  config  = jsonencode({ privateFields = "email", legacyOption = "on" })

  secret_config_wo         = jsonencode({ salt = var.anonymization_salt })
  secret_config_wo_version = 1
}

# PostHog's own migration already made a hog function of this one, and
# disabled it.
resource "pipeline_transformation_config" "property_filter" {
  plugin  = 2
  enabled = false
  order   = 3
  config  = jsonencode({ properties = "$ip" })
}

variable "anonymization_salt" {
  type      = string
  sensitive = true
  ephemeral = true
}
