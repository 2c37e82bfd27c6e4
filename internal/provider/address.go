package provider

// Address is the provider's source address in the registry.
const Address = "registry.terraform.io/pipelinecfg/pipeline"
