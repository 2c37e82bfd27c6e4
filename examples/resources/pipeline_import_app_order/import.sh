# By the project id, or "@current".
terraform import pipeline_import_app_order.this 1
