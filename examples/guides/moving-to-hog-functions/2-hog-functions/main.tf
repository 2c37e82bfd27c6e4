# Step 2: one hog function per config, with the official PostHog provider,
# from the file step 1 wrote. The file, not the data source, keeps the
# values: disabling the configs in step 3 must not disable these.
provider "posthog" {
  # host, api_key and project_id from POSTHOG_HOST, POSTHOG_API_KEY and
  # POSTHOG_PROJECT_ID, the same as this provider's.
}

locals {
  hog_functions = jsondecode(file("${path.module}/hog_functions.json"))
}

# The secrets the service never shows, by config id and setting:
# { "1" = { api_key = "..." } }.
variable "secret_inputs" {
  type      = map(map(string))
  sensitive = true
  default   = {}
}

resource "posthog_hog_function" "migrated" {
  for_each = local.hog_functions

  name            = each.value.name
  description     = each.value.description
  type            = each.value.type
  template_id     = each.value.template_id
  inputs_json     = each.value.inputs_json
  execution_order = each.value.execution_order
  enabled         = each.value.enabled
  # The service answers filters for every transformation and the official
  # provider keeps what it answers: without them its apply fails with
  # "Provider produced inconsistent result after apply".
  filters_json = jsonencode({ source = "events" })

  sensitive_inputs_json = jsonencode({
    for k in each.value.secret_inputs : k => { value = var.secret_inputs[each.key][k] }
  })
}
