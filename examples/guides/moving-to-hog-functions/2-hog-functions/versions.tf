# The one required_providers block, now with the official PostHog provider.
terraform {
  required_providers {
    pipeline = {
      source = "pipelinecfg/pipeline"
    }
    posthog = {
      source = "PostHog/posthog"
    }
  }
}
