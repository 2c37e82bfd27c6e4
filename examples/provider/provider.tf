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
}
