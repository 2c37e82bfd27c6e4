package acceptance

import (
	"os"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// The official PostHog provider (registry posthog/posthog) is not on the
// module proxy, so a clean clone cannot build it: the tests that use it run
// with its stand-in (package standin/posthog) unless a binary of the real
// one is given in envOfficialPostHog (make check-official; CONTRIBUTING.md
// says how to build it).

// envOfficialPostHog names a binary of PostHog's official provider, built
// from its source, that tests install instead of the stand-in.
const envOfficialPostHog = "PIPELINE_OFFICIAL_POSTHOG_PROVIDER"

// officialPostHogVersion is the version both are installed under: the
// official release the stand-in follows, which the guide's
// required_providers accept.
const officialPostHogVersion = "1.0.13"

// postHogAddresses are the official provider's addresses in both
// registries.
var postHogAddresses = []string{"registry.terraform.io/posthog/posthog", "registry.opentofu.org/posthog/posthog"}

// standInPostHog is the stand-in of the official provider, built into a
// mirror.
func standInPostHog(t *testing.T) *acctest.MirroredProvider {
	t.Helper()
	return acctest.BuildProvider(t, "./internal/acceptance/standin/posthog", "", officialPostHogVersion, postHogAddresses...)
}

// realPostHog is the official provider's binary envOfficialPostHog names,
// in a mirror; ok is false when none is given.
func realPostHog(t *testing.T) (p *acctest.MirroredProvider, ok bool) {
	t.Helper()
	bin := os.Getenv(envOfficialPostHog)
	if bin == "" {
		return nil, false
	}
	return acctest.InstallProvider(t, bin, officialPostHogVersion, postHogAddresses...), true
}

// withOfficialPostHog adds to setup the official PostHog provider
// (posthog_hog_function), required as posthog: the real one when
// envOfficialPostHog names it, else its stand-in.
func withOfficialPostHog(t *testing.T, setup acctest.TerraformSetup) acctest.TerraformSetup {
	t.Helper()
	p, ok := realPostHog(t)
	if !ok {
		p = standInPostHog(t)
	}
	return withPostHog(setup, p)
}

// withPostHog adds to setup the provider p, installed under the official
// PostHog provider's addresses and required as posthog.
func withPostHog(setup acctest.TerraformSetup, p *acctest.MirroredProvider) acctest.TerraformSetup {
	setup.Providers = append(setup.Providers, p)
	if setup.RequiredProviders == nil {
		setup.RequiredProviders = map[string]string{}
	}
	setup.RequiredProviders["posthog"] = "posthog/posthog"
	return setup
}

// postHogEnv is the environment both providers read: the local API at
// host, KeyOrg (plugin and hog function scopes), project 1.
func postHogEnv(host string) map[string]string {
	return map[string]string{"POSTHOG_HOST": host, "POSTHOG_API_KEY": localapi.KeyOrg, "POSTHOG_PROJECT_ID": "1"}
}
