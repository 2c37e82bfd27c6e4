# Before: plugin configs kept with Mastercard/restapi.
terraform {
  required_providers {
    restapi = {
      source = "Mastercard/restapi"
    }
  }
}

variable "host" {}
variable "key" {}
variable "geoip_key" {}

provider "restapi" {
  uri                  = var.host
  write_returns_object = true
  id_attribute         = "id"
  headers = {
    Authorization  = "Bearer ${var.key}"
    "Content-Type" = "application/json"
  }
}

resource "restapi_object" "geo" {
  path                    = "/api/projects/1/pipeline_transformation_configs"
  ignore_server_additions = true
  data = jsonencode({
    plugin  = 1
    order   = 1
    enabled = true
    name    = "GeoIP, moved"
    filters = { events = [{ id = "$pageview", type = "events" }] }
    # The service ignores `config` in JSON bodies: these never reached it.
    config = { locale = "en", api_key = var.geoip_key }
  })
}

resource "restapi_object" "bq" {
  path                    = "/api/projects/1/pipeline_import_apps_configs"
  ignore_server_additions = true
  data = jsonencode({
    plugin  = 4
    order   = 1
    enabled = true
  })
}
