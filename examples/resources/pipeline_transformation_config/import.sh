# A transformation config is imported by "<project_id>/<id>", or by "<id>"
# alone when the provider has a project_id.
terraform import pipeline_transformation_config.geoip 1/42
terraform import pipeline_transformation_config.geoip 42
