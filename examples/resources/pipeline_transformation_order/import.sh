# By the project id, or "@current".
terraform import pipeline_transformation_order.this 1
