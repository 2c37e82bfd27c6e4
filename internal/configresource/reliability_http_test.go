package configresource_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// TestAccReliability_plainHTTP: plain http to a host that is not loopback
// is refused at plan time, naming allow_insecure_http, and planned once the
// user opts in (planning a new config asks the service nothing, so the
// host need not exist).
func TestAccReliability_plainHTTP(t *testing.T) {
	t.Parallel()
	provider := func(optIn string) string {
		return `provider "pipeline" {
  host       = "http://pipeline.invalid"
  api_key    = "phx_anything"
  project_id = "1"
` + optIn + "}\n"
	}
	const config = `
resource "pipeline_transformation_config" "plain" {
  plugin = 1
}
`
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheckWithoutCreates(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:   provider("") + config,
				PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Invalid host.*host\s+=\s+"http://pipeline.invalid".*` +
					`plain\s+http\s+to\s+a\s+host\s+that\s+is\s+not\s+loopback.*unencrypted.*allow_insecure_http`),
			},
			{
				Config:      provider("  allow_insecure_http = false\n") + config,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid host.*allow_insecure_http`),
			},
			{
				Config:             provider("  allow_insecure_http = true\n") + config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}
