# Step 2: stop managing the configs and the migrations, destroying nothing:
# the (disabled) configs stay on the service.
removed {
  from = pipeline_transformation_config.geoip
  lifecycle {
    destroy = false
  }
}

removed {
  from = pipeline_import_app_config.s3
  lifecycle {
    destroy = false
  }
}

removed {
  from = pipeline_transformation_migration.geoip
  lifecycle {
    destroy = false
  }
}

removed {
  from = pipeline_import_app_migration.s3
  lifecycle {
    destroy = false
  }
}
