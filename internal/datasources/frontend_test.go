package datasources_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// TestAccFrontendDataSource reads the frontend of a config created in the
// same configuration, with a legacy key: the content and its type are what
// the service answers (JavaScript on the live service; the local API's
// Property Filter plugin has a frontend, the others the "no frontend"
// stub). A key with scopes gets an error that says what to do instead.
func TestAccFrontendDataSource(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		addr := "data." + dataSourceName(tc, "_frontend") + ".test"
		config := func(key string) string {
			return acctest.ProviderConfig(key) + tc.Resource("test", "  plugin = "+strconv.FormatInt(tc.Plugins[1], 10)) + fmt.Sprintf(`
data %q "test" {
  config_id = %s.test.id
}
`, dataSourceName(tc, "_frontend"), tc.TypeName)
		}
		legacy := acctest.LegacyKey(t)
		steps := []resource.TestStep{
			{
				Config: config(legacy),
				Check: func(s *terraform.State) error {
					attrs := s.RootModule().Resources[addr].Primary.Attributes
					project, id, err := acctest.RecordRef(s, tc.TypeName+".test")
					if err != nil {
						return err
					}
					fe, err := acctest.API(t).Frontend(context.Background(), project, tc.Kind.Collection, id)
					if err != nil {
						return err
					}
					if attrs["content"] != fe.Content || attrs["content_type"] != fe.ContentType {
						return fmt.Errorf("content %q (%s), the API answers %q (%s)", attrs["content"], attrs["content_type"], fe.Content, fe.ContentType)
					}
					if !strings.HasPrefix(attrs["content_type"], "application/javascript") || !strings.Contains(attrs["content"], "getFrontendApp") {
						return fmt.Errorf("content %q (%s), want the plugin's JavaScript", attrs["content"], attrs["content_type"])
					}
					if attrs["config_id"] != strconv.FormatInt(id, 10) || attrs["project_id"] != project {
						return fmt.Errorf("config_id %s, project_id %s; want %d, %s", attrs["config_id"], attrs["project_id"], id, project)
					}
					return nil
				},
			},
		}
		if !acctest.IsLive() {
			// The local API's scoped key (a live run has one key only).
			steps = append(steps, resource.TestStep{
				Config:      config(acctest.KeyWrite),
				ExpectError: regexp.MustCompile(`(?s)403\s+Forbidden.*only\s+a\s+browser\s+session.*Open\s+the\s+plugin's\s+page`),
			})
		}
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             acctest.CheckDestroyed(t, tc.TypeName, tc.Kind.Collection),
			Steps:                    steps,
		})
	})
}
