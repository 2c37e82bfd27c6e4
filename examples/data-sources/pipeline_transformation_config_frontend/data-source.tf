# A self-hosted PostHog older than March 2026, with a personal API key
# without scopes: the only ones that serve a frontend to an API key. Today's
# PostHog serves it to browser sessions only.
provider "pipeline" {
  alias = "unscoped"
  host  = "https://posthog.example.com"
  # api_key of a personal API key without scopes, e.g. from a variable.
}

data "pipeline_transformation_config_frontend" "this" {
  provider  = pipeline.unscoped
  config_id = 42
}

output "frontend_content_type" {
  value = data.pipeline_transformation_config_frontend.this.content_type
}
