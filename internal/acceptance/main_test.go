// Package acceptance holds the tests that drive the terraform binary with
// the provider as a process of its own, as users run it: an apply killed
// part-way, Terraform's own log, a run against a rate-limited service, and
// the commands terraform-plugin-testing has no step for (apply -invoke,
// query -generate-config-out, import blocks by identity). They need
// TF_ACC=1, run the binary TF_ACC_TERRAFORM_PATH names (else terraform on
// PATH), and run against local APIs of their own.
package acceptance

import (
	"os"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	acctest.RemoveProviderMirror()
	os.Exit(code)
}
