# The frontend of a config's plugin, as the service returns it (JavaScript
# on the live service). Only a legacy personal API key without scopes may
# read it: give such a key to an aliased provider.
provider "pipeline" {
  alias = "legacy"
  # api_key of a legacy key without scopes, e.g. from a variable.
}

data "pipeline_import_app_config_frontend" "this" {
  provider  = pipeline.legacy
  config_id = 42
}

output "frontend_content_type" {
  value = data.pipeline_import_app_config_frontend.this.content_type
}
