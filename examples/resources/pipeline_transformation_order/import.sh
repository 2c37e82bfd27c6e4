# The order of a project's transformation configs is imported by the project id (or
# "@current", the key owner's current project).
terraform import pipeline_transformation_order.this 1
