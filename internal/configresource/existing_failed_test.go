package configresource_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// TestAccExistingConfig_failedStep (issue 24, case 8): a test of a config
// lent to the suite (against a live instance, the one
// PIPELINE_TEST_<KIND>_CONFIG_ID names) that fails half-way, after an
// import block took the config over, leaves it on the service, neither
// deleted nor disabled, whichever way it fails: a check that fails after
// an update (the framework's post-test destroy then meets prevent_destroy),
// a step that would replace the config (another plugin), a step that drops
// the resource block (the provider refuses the destroy, in the step and
// after it), or a step that would let the config go but
// fails before its apply (terraform destroy ignores a removed block's
// destroy = false). Each runs through terraform-plugin-testing and the
// terraform binary, as the suite does, and its failure is observed here.
func TestAccExistingConfig_failedStep(t *testing.T) {
	for _, k := range framework.Kinds() {
		for _, fc := range []struct {
			name string
			// step is the one that fails; held is the block of the
			// config resource holding the lent config.
			step func(ex *acctest.ExistingConfig, held func(name string, plugin int64) string) resource.TestStep
			// want are in the failures the test reports.
			want []string
		}{
			{
				name: "check fails after an update",
				step: func(ex *acctest.ExistingConfig, held func(string, int64) string) resource.TestStep {
					return resource.TestStep{
						Config: ex.ProviderBlock() + held("renamed by a test that fails", ex.Original.Plugin),
						Check:  func(*terraform.State) error { return errors.New("made to fail half-way") },
					}
				},
				want: []string{"made to fail half-way", "Error running post-test destroy"},
			},
			{
				name: "step replaces it",
				step: func(ex *acctest.ExistingConfig, held func(string, int64) string) resource.TestStep {
					return resource.TestStep{Config: ex.ProviderBlock() + held(acctest.Deref(ex.Original.Name), otherPlugin(t, ex))}
				},
				want: []string{"refuse to replace the lent", "Error running post-test destroy"},
			},
			{
				name: "step drops the resource block",
				step: func(ex *acctest.ExistingConfig, _ func(string, int64) string) resource.TestStep {
					return resource.TestStep{Config: ex.ProviderBlock()}
				},
				want: []string{"refuse to destroy the lent", "Error running post-test destroy"},
			},
			{
				name: "letting go fails before its apply",
				step: func(ex *acctest.ExistingConfig, _ func(string, int64) string) resource.TestStep {
					// Plan only: the forget it plans fails the step.
					return resource.TestStep{Config: ex.ProviderBlock() + letGo(ex.Address("existing")), PlanOnly: true}
				},
				want: []string{"plan was not empty", "Error running post-test destroy"},
			},
		} {
			t.Run(k.Name+"/"+fc.name, func(t *testing.T) {
				ex := acctest.Existing(t, k)
				orig := ex.Original
				held := func(name string, plugin int64) string {
					return ex.Resource("existing", fmt.Sprintf(`  project_id  = %q
  plugin      = %d
  enabled     = %t
  name        = %q
  description = %q
%s`, ex.Project, plugin, orig.Enabled, name, acctest.Deref(orig.Description), filtersArgument(orig)))
				}
				steps := []resource.TestStep{
					{Config: ex.ProviderBlock() + ex.Import("existing") + held(acctest.Deref(orig.Name), orig.Plugin)},
					fc.step(ex, held),
				}
				failures := acctest.ExpectFailure(t, func(ft acctest.TestT) {
					ex.Test(ft, resource.TestCase{Steps: steps})
				})
				all := strings.Join(failures, "\n")
				for _, w := range fc.want {
					if !strings.Contains(all, w) {
						t.Errorf("the failed test reports no %q:\n%s", w, all)
					}
				}
				rec, err := ex.API.Get(context.Background(), ex.Project, k.Collection, ex.ID)
				if err != nil {
					t.Fatal(err)
				}
				if rec.Deleted || rec.Enabled != orig.Enabled {
					t.Errorf("after the failed test the lent %s %d is deleted %v, enabled %v; want not deleted, enabled %v",
						k.Noun, ex.ID, rec.Deleted, rec.Enabled, orig.Enabled)
				}
			})
		}
	}
}

// otherPlugin is a plugin of the lent config's kind other than its own.
func otherPlugin(t *testing.T, ex *acctest.ExistingConfig) int64 {
	for _, p := range acctest.Plugins(t, ex.Kind.Name) {
		if p != ex.Original.Plugin {
			return p
		}
	}
	t.Fatalf("no plugin of the %s kind other than %d", ex.Kind.Name, ex.Original.Plugin)
	return 0
}
