// Package acceptance holds only tests: those that drive the terraform
// binary with the provider as a process of its own, as users run it (an
// apply killed part-way, Terraform's own log, a run against a rate-limited
// service or one whose pages never end, apply -invoke, query -generate-config-out, import blocks by
// identity, a service moved to generation 2 or 3, the steps of the guide
// "Moving to hog functions", states of the generic REST providers taken
// over by moved blocks, with stand-ins of those providers from package
// standin; the official PostHog provider's posthog_hog_function against the
// local API's hog function routes, with its stand-in from standin/posthog,
// or its real binary when PIPELINE_OFFICIAL_POSTHOG_PROVIDER names one, and
// the two compared). They need TF_ACC=1, run the binary TF_ACC_TERRAFORM_PATH names
// (else terraform on PATH), and run against local APIs of their own. The
// harness they use, shared with every package's tests, is package acctest;
// the tests of each construct, which run the provider in the test process,
// live beside it.
package acceptance

import (
	"os"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

func TestMain(m *testing.M) {
	if os.Getenv(noReapEnv) != "" {
		runNoReap() // a helper process of the interrupt tests; never returns
	}
	code := m.Run()
	acctest.RemoveProviderMirror()
	os.Exit(code)
}
