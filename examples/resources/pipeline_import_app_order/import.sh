# The order of a project's import app configs is imported by the project id (or
# "@current", the key owner's current project).
terraform import pipeline_import_app_order.this 1
