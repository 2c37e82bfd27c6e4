# Before: plugin configs kept with magodo/restful.
terraform {
  required_providers {
    restful = {
      source = "magodo/restful"
    }
  }
}

variable "host" {}
variable "key" {}

provider "restful" {
  base_url = var.host
  security = {
    http = {
      token = {
        token = var.key
      }
    }
  }
}

resource "restful_resource" "geo" {
  path      = "/api/projects/1/pipeline_transformation_configs"
  read_path = "$(path)/$(body.id)"
  body = {
    plugin  = 1
    order   = 1
    enabled = true
    name    = "GeoIP, moved"
    filters = { events = [{ id = "$pageview", type = "events" }] }
  }
}

resource "restful_resource" "bq" {
  path      = "/api/projects/1/pipeline_import_apps_configs"
  read_path = "$(path)/$(body.id)"
  body = {
    plugin  = 4
    order   = 1
    enabled = true
  }
}
