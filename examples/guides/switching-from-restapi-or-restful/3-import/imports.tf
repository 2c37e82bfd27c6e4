# Without moved blocks: forget the peer's resources (the configs stay on the
# service) and import the configs by "<project_id>/<id>". For restful_resource
# write its type in `from`.
removed {
  from = restapi_object.geo
  lifecycle {
    destroy = false
  }
}

removed {
  from = restapi_object.bq
  lifecycle {
    destroy = false
  }
}

import {
  to = pipeline_transformation_config.geo
  id = "1/1004"
}

import {
  to = pipeline_import_app_config.bq
  id = "1/1001"
}
