# Step 1: what can succeed each config, kept in a file.
data "pipeline_transformation_configs" "all" {}
data "pipeline_import_app_configs" "all" {}

# The hog functions to write, or to take over where PostHog already made
# one (existing_id), by config id. Write them to a file once:
#   terraform apply && terraform output -json hog_functions > hog_functions.json
output "hog_functions" {
  value = {
    for c in data.pipeline_transformation_configs.all.configs :
    tostring(c.id) => c.hog_function if c.hog_function.available
  }
}

# The configs no hog function can succeed as they are, and why.
output "undecided" {
  value = merge(
    {
      for c in data.pipeline_transformation_configs.all.configs :
      "${c.id}: ${c.name}" => c.hog_function.reason if !c.hog_function.available
    },
    {
      for c in data.pipeline_import_app_configs.all.configs :
      "${c.id}: ${c.name}" => c.hog_function.reason
    },
  )
}
