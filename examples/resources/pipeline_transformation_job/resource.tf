resource "pipeline_transformation_config" "this" {
  plugin  = 2
  enabled = true
}

# Runs the plugin's public job "Reprocess" once when created, and again
# whenever triggers (or any other argument) change. Jobs need a legacy
# personal API key without scopes.
resource "pipeline_transformation_job" "reprocess" {
  config_id = pipeline_transformation_config.this.id
  job_type  = "Reprocess"
  payload   = jsonencode({ since = "2024-01-01" })

  triggers = {
    # Bump to run the job again.
    run = "1"
  }
}
