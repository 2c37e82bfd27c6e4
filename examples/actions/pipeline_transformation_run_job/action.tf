# A self-hosted PostHog older than July 2025, with a personal API key
# without scopes: the only ones that run plugin jobs.
provider "pipeline" {
  alias = "unscoped"
  host  = "https://posthog.example.com"
}

# Terraform 1.14+. Run it on demand:
#   terraform apply -invoke=action.pipeline_transformation_run_job.reprocess
action "pipeline_transformation_run_job" "reprocess" {
  provider = pipeline.unscoped

  config {
    config_id = 42
    job_type  = "Reprocess"
    payload   = jsonencode({ since = "2024-01-01" })
  }
}

# Or after each release, from an action_trigger.
resource "terraform_data" "release" {
  input = var.release

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.pipeline_transformation_run_job.reprocess]
    }
  }
}

variable "release" {
  type = string
}
