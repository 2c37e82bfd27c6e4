# A self-hosted PostHog older than July 2025, with a personal API key
# without scopes: the only ones that run plugin jobs.
provider "pipeline" {
  alias = "unscoped"
  host  = "https://posthog.example.com"
}

# Runs the plugin's public job "Backfill" once, and again whenever the
# triggers change.
resource "pipeline_import_app_job" "backfill" {
  provider  = pipeline.unscoped
  config_id = 57
  job_type  = "Backfill"
  payload   = jsonencode({ days = 7 })

  triggers = {
    run = "1" # change it to run the job again
  }
}
