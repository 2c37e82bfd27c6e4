# The README's first example, which `make demo` applies: take over a
# transformation config that already exists in PostHog, then change it.
# The provider reads host, api_key and project_id from POSTHOG_HOST,
# POSTHOG_API_KEY and POSTHOG_PROJECT_ID.
terraform {
  required_providers {
    pipeline = {
      source = "pipelinecfg/pipeline"
    }
  }
}

provider "pipeline" {}

# The transformation configs the project has, and the plugins it can use.
data "pipeline_transformation_configs" "all" {}
data "pipeline_transformation_plugins" "all" {}

output "configs" {
  value = { for c in data.pipeline_transformation_configs.all.configs : c.id => c.name }
}

# Take over config 1 (an id from the output above) ...
import {
  to = pipeline_transformation_config.geoip
  id = "1"
}

# ... and turn it on, with English place names. A name left out would be
# handed back to the plugin ("GeoIP"), so keep the config's own.
resource "pipeline_transformation_config" "geoip" {
  plugin  = data.pipeline_transformation_plugins.all.by_name["GeoIP"]
  name    = "GeoIP enrichment"
  enabled = true
  config  = jsonencode({ locale = "en" })
}
