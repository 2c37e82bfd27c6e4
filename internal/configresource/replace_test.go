package configresource_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// TestConfigResource_projectReplace: moving a config to another project
// replaces it, whether project_id is configured or follows the provider's;
// the plan names project_id once.
func TestConfigResource_projectReplace(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		host, _ := acctest.IsolatedAPI(t, nil)
		config := map[string]tftypes.Value{"plugin": tftypes.NewValue(tftypes.Number, tc.Plugins[0])}
		created := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1").Apply(t, tc.TypeName, nil, nil, config)
		acctest.FailOnDiagnostics(t, "create", created.Diagnostics)
		want := tftypes.NewAttributePath().WithAttributeName("project_id")

		for name, step := range map[string]struct {
			provider  string
			projectID tftypes.Value
		}{
			"configured":         {"1", tftypes.NewValue(tftypes.String, "2")},
			"provider's default": {"2", tftypes.NewValue(tftypes.String, nil)},
		} {
			srv := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, step.provider)
			moved := map[string]tftypes.Value{"plugin": config["plugin"], "project_id": step.projectID}
			plan := planChange(t, srv, tc.TypeName, created.NewState, created.NewIdentity, moved)
			if len(plan.RequiresReplace) != 1 || !plan.RequiresReplace[0].Equal(want) {
				t.Errorf("%s: replacement on %v, want project_id once", name, plan.RequiresReplace)
			}
		}
	})
}
