# One required_providers block per module: from step 2 on it also names
# the official PostHog provider.
terraform {
  required_providers {
    pipeline = {
      source = "pipelinecfg/pipeline"
    }
  }
}
