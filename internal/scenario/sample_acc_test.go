package scenario

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// sampleSeeds are the generated scenarios that run through the terraform
// binary: a sample, fixed so that every run of every tool meets the same,
// chosen among the first thirty for both kinds and for steps the service
// accepts as well as steps it refuses (TestScenarios covers the rest).
var sampleSeeds = []int{3, 6, 9, 11, 14, 21}

// TestAccScenarioSample renders a sample of generated scenarios to HCL and
// applies their configurations one after the other with the terraform
// binary (Terraform, the newest Terraform and OpenTofu in make test): each
// apply succeeds exactly when the service accepts every configuration's
// values, and converges (terraform-plugin-testing plans again after each
// apply and fails on any change); a configuration without them destroys
// them and leaves nothing active.
func TestAccScenarioSample(t *testing.T) {
	for _, seed := range sampleSeeds {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			sample := SampleGen(3).Example(seed)
			env := LocalEnv(t, sample.Catalog, sample.Current, localapi.VersionB, 0)
			t.Cleanup(env.Close)
			steps := make([]resource.TestStep, 0, len(sample.Steps)+1)
			for i := range sample.Steps {
				steps = append(steps, resource.TestStep{Config: sample.HCL(env, i)})
				for _, c := range sample.Steps[i] {
					if c == nil {
						continue
					}
					ok, why, err := env.Accepts(context.Background(), c)
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						t.Logf("step %d: the service refuses %s: %s", i+1, c, why)
						steps[i].ExpectError = regexp.MustCompile(`Error: `)
					}
				}
			}
			// Last, a configuration without the resources: it destroys what
			// the steps left (a refused last step would keep Terraform's
			// own destroy from validating).
			steps = append(steps, resource.TestStep{Config: env.ProviderHCL()})
			t.Logf("the catalog:\n%s", sample.Catalog.JSON())
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { acctest.PreCheck(t) },
				ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
				Steps:                    steps,
				CheckDestroy: func(*terraform.State) error {
					active, err := env.ActiveIDs(context.Background())
					if err != nil {
						return err
					}
					if len(active) > 0 {
						return fmt.Errorf("configs left active after destroy: %v", active)
					}
					return nil
				},
			})
		})
	}
}
