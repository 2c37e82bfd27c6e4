resource "pipeline_import_app_config" "this" {
  plugin  = 3
  enabled = true
}

# Runs the plugin's public job "Backfill" once when created, and again
# whenever triggers (or any other argument) change. Jobs need a legacy
# personal API key without scopes.
resource "pipeline_import_app_job" "backfill" {
  config_id = pipeline_import_app_config.this.id
  job_type  = "Backfill"
  payload   = jsonencode({ days = 7 })

  triggers = {
    # Bump to run the job again.
    run = "1"
  }
}
