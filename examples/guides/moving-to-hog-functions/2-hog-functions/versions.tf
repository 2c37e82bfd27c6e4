# The official PostHog provider, beside this one.
terraform {
  required_providers {
    posthog = {
      source = "PostHog/posthog"
    }
  }
}
