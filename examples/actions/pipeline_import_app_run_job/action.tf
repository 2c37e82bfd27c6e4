# Terraform 1.14+. Run it on demand:
#   terraform apply -invoke=action.pipeline_import_app_run_job.backfill
action "pipeline_import_app_run_job" "backfill" {
  config {
    config_id = pipeline_import_app_config.this.id
    job_type  = "Backfill"
    payload   = jsonencode({ days = 7 })
  }
}

resource "pipeline_import_app_config" "this" {
  plugin  = 3
  enabled = true
}

# Or after a resource is created or updated, from an action_trigger.
resource "terraform_data" "release" {
  input = var.release

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.pipeline_import_app_run_job.backfill]
    }
  }
}

variable "release" {
  type = string
}
