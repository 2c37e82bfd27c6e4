# Runs against the service the provider is configured for through
# POSTHOG_HOST / POSTHOG_API_KEY / POSTHOG_PROJECT_ID; `make test` points it
# at the local API (plugins 1 and 2 are transformations there).

run "creates_configs_in_list_order" {
  variables {
    transformations = [
      {
        key     = "geoip"
        plugin  = 1
        name    = "GeoIP enrichment"
        filters = jsonencode({ events = [{ id = "$pageview", type = "events" }] })
      },
      {
        key     = "filter"
        plugin  = 2
        enabled = false
      },
    ]
  }

  assert {
    condition     = pipeline_transformation_config.this["geoip"].order == 1 && pipeline_transformation_config.this["filter"].order == 2
    error_message = "Configs must be ordered by their position in the list."
  }

  assert {
    condition     = output.names["geoip"] == "GeoIP enrichment"
    error_message = "A name that is set must be kept."
  }

  assert {
    condition     = output.names["filter"] != null && output.names["filter"] != ""
    error_message = "A config without a name must read back the plugin's name."
  }

  assert {
    condition     = jsondecode(pipeline_transformation_config.this["geoip"].filters).events[0].type == "events"
    error_message = "Filters must be stored."
  }

  assert {
    condition     = length(output.ordered_ids) == 2 && output.ordered_ids[0] == output.ids["geoip"]
    error_message = "ordered_ids must follow the list."
  }
}

run "reorders_in_place" {
  variables {
    transformations = [
      { key = "filter", plugin = 2, enabled = false },
      {
        key     = "geoip"
        plugin  = 1
        name    = "GeoIP enrichment"
        filters = jsonencode({ events = [{ id = "$pageview", type = "events" }] })
      },
    ]
  }

  assert {
    condition     = pipeline_transformation_config.this["filter"].order == 1 && pipeline_transformation_config.this["geoip"].order == 2
    error_message = "Moving an entry must re-order the configs."
  }

  assert {
    condition     = output.ids["geoip"] == run.creates_configs_in_list_order.ids["geoip"]
    error_message = "Re-ordering must update the configs in place, not replace them."
  }
}

run "refuses_duplicate_keys" {
  command = plan

  variables {
    transformations = [
      { key = "a", plugin = 1 },
      { key = "a", plugin = 2 },
    ]
  }

  expect_failures = [var.transformations]
}
