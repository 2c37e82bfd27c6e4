package configresource_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// TestAccExistingConfig manages a config that existed before the test, as
// on a service that no longer creates configs (generation 2; against a live
// instance the one PIPELINE_TEST_<KIND>_CONFIG_ID names): an import block
// takes it over with its current values and no change, an update sets its
// name and description and flips enabled (the API shows them), each apply
// followed by an empty plan, and the last step (ExistingConfig.Test) lets
// it go without destroying it. The test then sets back what it changed.
func TestAccExistingConfig(t *testing.T) {
	for _, k := range framework.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			ex := acctest.Existing(t, k)
			addr := ex.Address("existing")
			orig := ex.Original
			filters := filtersArgument(orig)
			resourceBlock := func(name, description string, enabled bool) string {
				return ex.Resource("existing", fmt.Sprintf(`  project_id  = %q
  plugin      = %d
  enabled     = %t
  name        = %q
  description = %q
%s`, ex.Project, orig.Plugin, enabled, name, description, filters))
			}
			ex.Test(t, resource.TestCase{
				Steps: []resource.TestStep{
					{
						Config: ex.ProviderBlock() + ex.Import("existing") +
							resourceBlock(acctest.Deref(orig.Name), acctest.Deref(orig.Description), orig.Enabled),
						Check: resource.ComposeAggregateTestCheckFunc(
							resource.TestCheckResourceAttr(addr, "id", strconv.FormatInt(ex.ID, 10)),
							checkOnAPI(ex, addr, acctest.Deref(orig.Name), orig.Enabled),
						),
					},
					{
						Config: ex.ProviderBlock() + resourceBlock("changed by the acceptance tests", "changed at "+ex.ImportID(), !orig.Enabled),
						Check:  checkOnAPI(ex, addr, "changed by the acceptance tests", !orig.Enabled),
					},
				},
			})
		})
	}
}

// letGo is a removed block that lets the config at addr go without
// destroying it.
func letGo(addr string) string {
	return fmt.Sprintf("\nremoved {\n  from = %s\n  lifecycle {\n    destroy = false\n  }\n}\n", addr)
}

// filtersArgument is the filters argument of a configuration that holds
// rec's filters as the service holds them (none at generation 2).
func filtersArgument(rec *client.Record) string {
	if python.IsNull(rec.Filters) {
		return ""
	}
	return fmt.Sprintf("  filters     = %q\n", python.Compact(rec.Filters))
}

// checkOnAPI checks that the existing config holds name and enabled on the
// API, and that the state says what the API says.
func checkOnAPI(ex *acctest.ExistingConfig, addr, name string, enabled bool) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rec, err := ex.API.Get(context.Background(), ex.Project, ex.Kind.Collection, ex.ID)
		if err != nil {
			return err
		}
		if acctest.Deref(rec.Name) != name || rec.Enabled != enabled || rec.Deleted {
			return fmt.Errorf("config %d on the API: name %q enabled %v deleted %v; want %q, %v, not deleted",
				ex.ID, acctest.Deref(rec.Name), rec.Enabled, rec.Deleted, name, enabled)
		}
		attrs := s.RootModule().Resources[addr].Primary.Attributes
		for attr, api := range map[string]string{
			"name": acctest.Deref(rec.Name), "description": acctest.Deref(rec.Description),
			"enabled": strconv.FormatBool(rec.Enabled), "order": strconv.FormatInt(rec.Order, 10),
			"plugin": strconv.FormatInt(rec.Plugin, 10),
		} {
			if attrs[attr] != api {
				return fmt.Errorf("state %s = %q, the API %q", attr, attrs[attr], api)
			}
		}
		if f := attrs["filters"]; (f == "") != python.IsNull(rec.Filters) || f != "" && !configresource.FiltersEqual(f, string(rec.Filters)) {
			return fmt.Errorf("state filters %q, the API %s", f, rec.Filters)
		}
		return nil
	}
}
