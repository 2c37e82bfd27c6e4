# Every import app plugin the organization can use.
data "pipeline_import_app_plugins" "all" {}

# An S3 import, its plugin found by its repository.
resource "pipeline_import_app_config" "s3" {
  plugin = data.pipeline_import_app_plugins.all.by_url["https://github.com/PostHog/s3-import-plugin"]
  config = jsonencode({ bucket = "events-archive" })
}
