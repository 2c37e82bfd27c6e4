# The module's own checks of its input, which fail the plan before anything
# is read or sent. Applying it (import blocks in a root module, as in the
# README) is checked against a stand-in for today's PostHog by `make test`.

run "refuses_duplicate_keys" {
  command = plan

  variables {
    transformations = [
      { key = "a", id = 42, plugin = 1 },
      { key = "a", id = 43, plugin = 2 },
    ]
  }

  expect_failures = [var.transformations]
}

run "refuses_a_config_listed_twice" {
  command = plan

  variables {
    transformations = [
      { key = "geoip", id = 42, plugin = 1 },
      { key = "filter", id = 42, plugin = 2 },
    ]
  }

  expect_failures = [var.transformations]
}
