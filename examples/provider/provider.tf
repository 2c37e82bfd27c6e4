terraform {
  required_providers {
    pipeline = {
      source = "pipelinecfg/pipeline"
    }
  }
}

# Every setting can come from the environment instead: POSTHOG_HOST,
# POSTHOG_API_KEY and POSTHOG_PROJECT_ID, as for the official PostHog
# provider. Keep the API key out of configuration files.
provider "pipeline" {
  host       = "https://eu.posthog.com"
  project_id = "12345" # or "@current": the key owner's current project

  # Optional tuning; these are the defaults.
  max_retries         = 5
  request_timeout     = "30s"
  requests_per_minute = 400 # under the service's 480 per minute and key; slower when it throttles
}
