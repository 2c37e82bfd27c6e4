# By "<project_id>/<id>", or "<id>" when the provider has a project_id.
terraform import pipeline_transformation_config.geoip 1/42
terraform import pipeline_transformation_config.geoip 42
