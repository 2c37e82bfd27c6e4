package datasources_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// TestAccExistingDataSources reads a config that existed before the test,
// as on a service that no longer creates configs (generation 2; against a
// live instance the one PIPELINE_TEST_<KIND>_CONFIG_ID names), through the
// single-record and list data sources: both show what the API holds. The
// frontend data source, which needs a legacy key, reads it too when the
// key is one.
func TestAccExistingDataSources(t *testing.T) {
	for _, k := range framework.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			ex := acctest.Existing(t, k)
			typ := k.ConfigTypeName()
			provider := ex.ProviderBlock()
			body := fmt.Sprintf(`
data %[1]q "existing" {
  project_id = %[2]q
  id         = %[3]d
}

data "%[1]ss" "all" {
  project_id = %[2]q
}

output "listed" {
  value = contains([for c in data.%[1]ss.all.configs : c.id], %[3]d)
}
`, typ, ex.Project, ex.ID)
			rec, err := ex.API.Get(context.Background(), ex.Project, k.Collection, ex.ID)
			if err != nil {
				t.Fatal(err)
			}
			checks := []resource.TestCheckFunc{
				resource.TestCheckOutput("listed", "true"),
			}
			for attr, want := range map[string]string{
				"id": strconv.FormatInt(rec.ID, 10), "plugin": strconv.FormatInt(rec.Plugin, 10),
				"name": acctest.Deref(rec.Name), "description": acctest.Deref(rec.Description),
				"enabled": strconv.FormatBool(rec.Enabled), "order": strconv.FormatInt(rec.Order, 10),
				"deleted": "false", "updated_at": rec.UpdatedAt,
			} {
				checks = append(checks, resource.TestCheckResourceAttr("data."+typ+".existing", attr, want))
			}
			if acctest.HasLegacyKey() {
				provider = ex.ProviderBlockWith(acctest.KeyFull)
				body += fmt.Sprintf(`
data "%[1]s_frontend" "existing" {
  project_id = %[2]q
  config_id  = %[3]d
}
`, typ, ex.Project, ex.ID)
				checks = append(checks, func(s *terraform.State) error {
					fe, err := ex.API.Frontend(context.Background(), ex.Project, k.Collection, ex.ID)
					if err != nil {
						return err
					}
					attrs := s.RootModule().Resources["data."+typ+"_frontend.existing"].Primary.Attributes
					if attrs["content"] != fe.Content || attrs["content_type"] != fe.ContentType {
						return fmt.Errorf("frontend %q (%s), the API answers %q (%s)", attrs["content"], attrs["content_type"], fe.Content, fe.ContentType)
					}
					return nil
				})
			}
			ex.Test(t, resource.TestCase{
				Steps: []resource.TestStep{{Config: provider + body, Check: resource.ComposeAggregateTestCheckFunc(checks...)}},
			})
		})
	}
}
