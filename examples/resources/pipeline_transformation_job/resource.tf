# A self-hosted PostHog older than July 2025, with a personal API key
# without scopes: the only ones that run plugin jobs.
provider "pipeline" {
  alias = "unscoped"
  host  = "https://posthog.example.com"
}

# Runs the plugin's public job "Reprocess" once, and again whenever the
# triggers change.
resource "pipeline_transformation_job" "reprocess" {
  provider  = pipeline.unscoped
  config_id = 42
  job_type  = "Reprocess"
  payload   = jsonencode({ since = "2024-01-01" })

  triggers = {
    run = "1" # change it to run the job again
  }
}
