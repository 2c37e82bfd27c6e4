# Step 1: read what each config's hog function needs, and keep it in a file.
data "pipeline_transformation_configs" "all" {}

# The hog function the service's migration would build of each config, by
# config id. Write it to a file once:
#   terraform apply && terraform output -json hog_functions > hog_functions.json
output "hog_functions" {
  value = {
    for c in data.pipeline_transformation_configs.all.configs :
    tostring(c.id) => c.hog_function if c.hog_function.available
  }
}

# Configs whose plugin has no hog function template: build those yourself.
output "without_template" {
  value = [
    for c in data.pipeline_transformation_configs.all.configs :
    "${c.id}: ${c.name}" if !c.hog_function.available
  ]
}
