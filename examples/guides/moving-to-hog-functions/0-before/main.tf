# The configs as Terraform manages them before the move.
resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  enabled = true
  order   = 1
  name    = "GeoIP"
  config  = jsonencode({ locale = "en" })

  secret_config_wo         = jsonencode({ api_key = var.geoip_api_key })
  secret_config_wo_version = 1
}

resource "pipeline_transformation_config" "currency" {
  plugin  = 8
  enabled = false
  order   = 2
  name    = "Currency"
  config  = jsonencode({ normalizedCurrency = "EUR" })
}

variable "geoip_api_key" {
  type      = string
  sensitive = true
  ephemeral = true
}
