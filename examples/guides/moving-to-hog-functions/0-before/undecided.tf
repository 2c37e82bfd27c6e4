# Configs no hog function can succeed as they are (see "Configs without a
# successor"): they stay as they are through the steps below.
resource "pipeline_transformation_config" "geoip" {
  plugin  = 1
  enabled = true
  order   = 4
  config  = jsonencode({ locale = "en" })
}

resource "pipeline_import_app_config" "s3" {
  plugin  = 3
  enabled = true
  config  = jsonencode({ bucket = "events" })
}
