# Step 3: the hog functions run; disable the configs they succeed, so that
# no event is handled twice. Only enabled changes.
resource "pipeline_transformation_config" "taxonomy" {
  plugin  = 5
  enabled = false
  order   = 1
  config  = jsonencode({ defaultNamingConvention = "snake_case" })
}

resource "pipeline_transformation_config" "anonymization" {
  plugin  = 20
  enabled = false
  order   = 2
  config  = jsonencode({ privateFields = "email", legacyOption = "on" })

  secret_config_wo         = jsonencode({ salt = var.anonymization_salt })
  secret_config_wo_version = 1
}

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
