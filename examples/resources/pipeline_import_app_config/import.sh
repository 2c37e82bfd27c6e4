# By "<project_id>/<id>", or "<id>" when the provider has a project_id.
terraform import pipeline_import_app_config.s3 1/57
terraform import pipeline_import_app_config.s3 57
