terraform {
  required_version = ">= 1.11"

  required_providers {
    pipeline = {
      source = "pipelinecfg/pipeline"
    }
  }
}
