# Step 4: let the configs go without deleting them: they stay on the
# service, disabled, as a record of what was moved. Nothing here names this
# provider's resources or data sources any more.
removed {
  from = pipeline_transformation_config.geoip
  lifecycle {
    destroy = false
  }
}

removed {
  from = pipeline_transformation_config.currency
  lifecycle {
    destroy = false
  }
}
