package collection_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestAccRecordResource_badInput: bad values are refused at plan time, with
// the attribute named, before any request to the service: on the local API
// the test has one of its own, which must have counted no request.
func TestAccRecordResource_badInput(t *testing.T) {
	forEachKind(t, func(t *testing.T, tc kindCase) {
		providerBlock := acctest.ProviderConfig(acctest.KeyWrite)
		var local *localapi.Server
		if os.Getenv("TF_ACC") != "" && !acctest.IsLive() {
			var host string
			host, local = acctest.IsolatedAPI(t, nil)
			providerBlock = acctest.ProviderBlock(host, acctest.KeyWrite, "1")
		}
		plugin := "  plugin = " + itoa(tc.plugins[0]) + "\n"
		cases := []struct {
			body string
			want string
		}{
			{plugin + `  filters = "not json"`, `(?s)filters.*must be a JSON object`},
			{plugin + `  filters = jsonencode(["events"])`, `(?s)filters.*must be a JSON object.*got a list`},
			{plugin + `  filters = jsonencode({ events = [{ id = "$pageview" }] })`, `(?s)filters.*filters.events\[0\] needs a "type"`},
			{plugin + `  filters = jsonencode({ events = "$pageview" })`, `(?s)filters.*filters.events must be a list`},
			{plugin + `  name = "` + strings.Repeat("n", 401) + `"`, `(?s)name.*length must be between 1 and 400`},
			{plugin + `  name = ""`, `(?s)name.*length must be between 1 and 400`},
			{plugin + `  description = "` + strings.Repeat("d", 1001) + `"`, `(?s)description.*length must be between 1 and\s+1000`},
			{"  plugin = 0", `(?s)plugin.*must be at least 1`},
			{"  plugin = -3", `(?s)plugin.*must be at least 1`},
			{plugin + "  order = 2147483648", `(?s)order.*value must be between`},
			{plugin + "  order = -2147483649", `(?s)order.*value must be between`},
			{plugin + `  project_id = "my-project"`, `(?s)project_id.*must be a positive integer or "@current"`},
		}
		steps := make([]resource.TestStep, 0, len(cases)+2)
		for _, c := range cases {
			steps = append(steps, resource.TestStep{
				Config:      providerBlock + tc.resource("bad", c.body),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(c.want),
			})
		}
		// Malformed import IDs, through import blocks.
		for _, id := range []string{"project/42", "1/forty-two", "1/0"} {
			steps = append(steps, resource.TestStep{
				Config: providerBlock + tc.resource("bad", plugin) +
					"\nimport {\n  to = " + tc.typeName + ".bad\n  id = \"" + id + "\"\n}\n",
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid import ID.*expected\s+<project_id>/<id>`),
			})
		}
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps:                    steps,
		})
		if local != nil {
			if n := local.Counters()["total"]; n != 0 {
				t.Errorf("the local API counted %d requests, want none", n)
			}
		}
	})
}

// TestAccRecordResource_serviceError: what only the service knows (the
// plugin does not exist) is reported naming the operation, the status and
// the service's detail, on the attribute the service names.
func TestAccRecordResource_serviceError(t *testing.T) {
	forEachKind(t, func(t *testing.T, tc kindCase) {
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config: tc.config("missing", "  plugin = 999999"),
				ExpectError: regexp.MustCompile(`(?s)Could not create ` + tc.kind.Noun +
					`.*plugin = 999999.*answered 400 Bad\s+Request.*does not exist.*Attribute: plugin`),
			}},
		})
	})
}
