# One moved block per restapi_object.
moved {
  from = restapi_object.geo
  to   = pipeline_transformation_config.geo
}

moved {
  from = restapi_object.bq
  to   = pipeline_import_app_config.bq
}
