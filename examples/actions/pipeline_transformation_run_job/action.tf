# Terraform 1.14+. Run it on demand:
#   terraform apply -invoke=action.pipeline_transformation_run_job.reprocess
action "pipeline_transformation_run_job" "reprocess" {
  config {
    config_id = pipeline_transformation_config.this.id
    job_type  = "Reprocess"
    payload   = jsonencode({ since = "2024-01-01" })
  }
}

resource "pipeline_transformation_config" "this" {
  plugin  = 2
  enabled = true
}

# Or after a resource is created or updated, from an action_trigger.
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
