# One moved block per restful_resource.
moved {
  from = restful_resource.geo
  to   = pipeline_transformation_config.geo
}

moved {
  from = restful_resource.bq
  to   = pipeline_import_app_config.bq
}
