# Step 2: a hog function per config, with the official PostHog provider,
# from the file step 1 wrote. The file, not the data source, keeps the
# values: disabling the configs in step 3 must not disable these.
provider "posthog" {
  # host, api_key and project_id from POSTHOG_HOST, POSTHOG_API_KEY and
  # POSTHOG_PROJECT_ID, the same as this provider's.
}

locals {
  hog_functions = jsondecode(file("${path.module}/hog_functions.json"))
}

# The secrets PostHog never shows, by config id and setting:
# { "12" = { salt = "..." } }.
variable "secret_inputs" {
  type      = map(map(string))
  sensitive = true
  default   = {}
}

# The hog functions PostHog already made of a config: taken over, not made
# again (two would both run on every event).
import {
  for_each = { for id, h in local.hog_functions : id => h.existing_id if h.existing_id != null }
  to       = posthog_hog_function.moved[each.key]
  id       = each.value
}

resource "posthog_hog_function" "moved" {
  for_each = local.hog_functions

  name            = each.value.name
  description     = each.value.description
  type            = each.value.type
  template_id     = each.value.template_id
  inputs_json     = each.value.inputs_json
  filters_json    = each.value.filters_json
  execution_order = each.value.execution_order
  enabled         = each.value.enabled

  sensitive_inputs_json = length(each.value.secret_inputs) == 0 ? null : jsonencode({
    for k in each.value.secret_inputs : k => { value = var.secret_inputs[each.key][k] }
  })
}
