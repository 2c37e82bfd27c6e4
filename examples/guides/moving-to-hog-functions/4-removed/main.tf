# Step 4: let the moved configs go without deleting them: they stay on the
# service, disabled, as a record of what was moved.
removed {
  from = pipeline_transformation_config.taxonomy
  lifecycle {
    destroy = false
  }
}

removed {
  from = pipeline_transformation_config.anonymization
  lifecycle {
    destroy = false
  }
}

removed {
  from = pipeline_transformation_config.property_filter
  lifecycle {
    destroy = false
  }
}
