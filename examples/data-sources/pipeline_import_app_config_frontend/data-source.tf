# Only a self-hosted PostHog older than March 2026 serves a frontend to an
# API key, and only to a personal API key without scopes: give such a key
# to an aliased provider.
provider "pipeline" {
  alias = "unscoped"
  # api_key of a personal API key without scopes, e.g. from a variable.
}

data "pipeline_import_app_config_frontend" "this" {
  provider  = pipeline.unscoped
  config_id = 42
}

output "frontend_content_type" {
  value = data.pipeline_import_app_config_frontend.this.content_type
}
