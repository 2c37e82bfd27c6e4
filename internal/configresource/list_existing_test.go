package configresource_test

import (
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// TestAccExistingList lists a collection holding a config that existed
// before the test, as on a service that no longer creates configs
// (generation 2; against a live instance the one
// PIPELINE_TEST_<KIND>_CONFIG_ID names), through the list resource's
// protocol calls as Terraform 1.14+ makes them, so that any Terraform runs
// it: the config is among the results, with its identity and the resource
// object the config resource would hold.
func TestAccExistingList(t *testing.T) {
	for _, k := range framework.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			ex := acctest.Existing(t, k)
			srv := acctest.NewProviderServerFor(t, ex.Host, ex.Key, ex.Project)
			typ := k.ConfigTypeName()
			identityType, resourceType := srv.IdentityType(t, typ), srv.ResourceType(t, typ)
			results := srv.List(t, typ, map[string]tftypes.Value{"project_id": tftypes.NewValue(tftypes.String, ex.Project)}, true, 0)
			found := false
			for _, res := range results {
				acctest.FailOnDiagnostics(t, "ListResource", res.Diagnostics)
				ident := acctest.Attributes(t, res.Identity.IdentityData, identityType)
				if numberOf(t, ident["id"]) != strconv.FormatInt(ex.ID, 10) {
					continue
				}
				found = true
				obj := acctest.Attributes(t, res.Resource, resourceType)
				if acctest.StringOf(t, ident["project_id"]) != ex.Project || acctest.StringOf(t, obj["name"]) != acctest.Deref(ex.Original.Name) ||
					obj["filters"].IsNull() != python.IsNull(ex.Original.Filters) {
					t.Errorf("config %d listed as %v, %v; want the project, its name and its filters (%s)", ex.ID, ident, obj, ex.Original.Filters)
				}
			}
			if !found {
				t.Errorf("config %d is not among the %d results", ex.ID, len(results))
			}
		})
	}
}
