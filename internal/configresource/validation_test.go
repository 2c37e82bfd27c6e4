package configresource_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// badInput is one kind of bad input and how it must be refused.
type badInput struct {
	what string
	// provider is added to the provider block; body follows it.
	provider, body string
	// attr is the attribute whose line the error shows; "" when Terraform
	// shows none (an import ID has no attribute).
	attr string
	// summary and detail are regexps of the error.
	summary, detail string
}

// badInputs returns the table for a kind: what the provider can know to be
// wrong without asking the service. provider settings are checked once,
// with the first kind.
func badInputs(tc acctest.KindCase, withProvider bool) []badInput {
	plugin := "  plugin = " + strconv.FormatInt(tc.Plugins[0], 10) + "\n"
	record := func(body string) string { return tc.Resource("bad", plugin+body) }
	job := "pipeline_" + tc.Kind.Name + "_job"
	order := "pipeline_" + tc.Kind.Name + "_order"
	cases := []badInput{
		{what: "filters not JSON", body: record(`  filters = "not json"`), attr: "filters",
			summary: "Invalid filters", detail: `filters must be a JSON object`},
		{what: "filters not an object", body: record(`  filters = jsonencode(["events"])`), attr: "filters",
			summary: "Invalid filters", detail: `filters must be a JSON object.*got a list`},
		{what: "filters event without a type", body: record(`  filters = jsonencode({ events = [{ id = "$pageview" }] })`), attr: "filters",
			summary: "Invalid filters", detail: `filters.events\[0\] needs a "type"`},
		{what: "filters event type not a string", body: record(`  filters = jsonencode({ events = [{ type = 5 }] })`), attr: "filters",
			summary: "Invalid filters", detail: `filters.events\[0\].type must be "events" or "actions", got a number`},
		{what: "filters event of another type", body: record(`  filters = jsonencode({ actions = [{ type = "event" }] })`), attr: "filters",
			summary: "Invalid filters", detail: `filters.actions\[0\].type must be "events" or "actions", got "event"`},
		{what: "filters events not a list", body: record(`  filters = jsonencode({ events = "$pageview" })`), attr: "filters",
			summary: "Invalid filters", detail: `filters.events must be a list`},
		{what: "filters test-account flag not a boolean", body: record(`  filters = jsonencode({ filter_test_accounts = "maybe" })`), attr: "filters",
			summary: "Invalid filters", detail: `filters.filter_test_accounts must be true or false`},
		{what: "filters entry with a blank id", body: record(`  filters = jsonencode({ events = [{ type = "events", id = "  " }] })`), attr: "filters",
			summary: "Invalid filters", detail: `filters.events\[0\].id must not be blank`},
		{what: "filters entry with a fractional order", body: record(`  filters = jsonencode({ events = [{ type = "events", order = 1.5 }] })`), attr: "filters",
			summary: "Invalid filters", detail: `filters.events\[0\].order must be an integer, got 1.5`},
		{what: "filters entry with null properties", body: record(`  filters = jsonencode({ actions = [{ type = "actions", properties = null }] })`), attr: "filters",
			summary: "Invalid filters", detail: `filters.actions\[0\].properties must be a list of objects, got null`},
		{what: "plugin settings past a double", body: record(`  config = "{\"rate\": 1e400}"`), attr: "config",
			summary: "Invalid plugin settings", detail: `config.rate is a number past a double's range`},
		{what: "name over 400 characters", body: record(`  name = " ` + strings.Repeat("é", 401) + `\n"`), attr: "name",
			summary: "Text too long", detail: `name\s+must\s+be\s+at\s+most\s+400\s+characters,\s+got\s+401`},
		{what: "null character in a name", body: record(`  name = "\u0000"`), attr: "name",
			summary: "Null character in text", detail: `name\s+contains\s+a\s+null\s+character`},
		{what: "description over 1000 characters", body: record(`  description = "` + strings.Repeat("d", 1001) + `"`), attr: "description",
			summary: "Text too long", detail: `description\s+must\s+be\s+at\s+most\s+1000\s+characters`},
		{what: "plugin 0", body: tc.Resource("bad", "  plugin = 0"), attr: "plugin",
			summary: "Invalid Attribute Value", detail: `must be at least 1`},
		{what: "negative plugin", body: tc.Resource("bad", "  plugin = -3"), attr: "plugin",
			summary: "Invalid Attribute Value", detail: `must be at least 1`},
		{what: "order over the 32-bit range", body: record("  order = 2147483648"), attr: "order",
			summary: "Invalid Attribute Value", detail: `value must be between`},
		{what: "order under the 32-bit range", body: record("  order = -2147483649"), attr: "order",
			summary: "Invalid Attribute Value", detail: `value must be between`},
		{what: "malformed project_id", body: record(`  project_id = "my-project"`), attr: "project_id",
			summary: "Invalid Attribute Value Match", detail: `must be a positive integer or "@current"`},
		{what: "plugin settings not an object", body: record(`  config = jsonencode(["en"])`), attr: "config",
			summary: "Invalid plugin settings", detail: `config must be a JSON object`},
		{what: "job payload not a JSON object", attr: "payload",
			body:    fmt.Sprintf("\nresource %q \"bad\" {\n  config_id = 1\n  job_type = \"x\"\n  payload = jsonencode([1])\n}\n", job),
			summary: "Payload is not a JSON object", detail: `must be a JSON object`},
		{what: "job payload not JSON", attr: "payload",
			body:    fmt.Sprintf("\nresource %q \"bad\" {\n  config_id = 1\n  job_type = \"x\"\n  payload = \"days=7\"\n}\n", job),
			summary: "Invalid JSON String Value", detail: `not valid JSON`},
		{what: "duplicate ids in an order", attr: "config_ids",
			body:    fmt.Sprintf("\nresource %q \"bad\" {\n  config_ids = [1, 2, 1]\n}\n", order),
			summary: "Duplicate List Value", detail: `duplicate values of: 1`},
		{what: "non-positive id in an order", attr: "config_ids",
			body:    fmt.Sprintf("\nresource %q \"bad\" {\n  config_ids = [1, 0]\n}\n", order),
			summary: "Invalid Attribute Value", detail: `must be at least 1`},
	}
	// Malformed import IDs, through import blocks.
	for _, id := range []string{"project/42", "1/forty-two", "1/0"} {
		cases = append(cases, badInput{what: "malformed import ID " + id,
			body:    record("") + "\nimport {\n  to = " + tc.TypeName + ".bad\n  id = \"" + id + "\"\n}\n",
			summary: "Invalid import ID", detail: regexp.QuoteMeta(strconv.Quote(id)) + `.*expected\s+<project_id>/<id>`})
	}
	if !withProvider {
		return cases
	}
	for _, p := range []struct{ what, setting, attr, summary, detail string }{
		{"empty api_key", `api_key = ""`, "api_key", "Invalid api_key", `must not be empty or blank`},
		{"whitespace api_key", `api_key = "   "`, "api_key", "Invalid api_key", `must not be empty or blank`},
		{"host without a scheme", `host = "us.posthog.com"`, "host", "Invalid host", `must be an absolute http\(s\) URL`},
		{"host not http(s)", `host = "ftp://us.posthog.com"`, "host", "Invalid host", `must be an absolute http\(s\) URL`},
		{"plain http to a remote host", `host = "http://posthog.example.com"`, "host", "Invalid host",
			`plain http to a host that is\s+not loopback.*unencrypted.*allow_insecure_http`},
		{"malformed provider project_id", `project_id = "my-project"`, "project_id", "Invalid Attribute Value Match",
			`must be a positive integer or "@current"`},
		{"max_retries out of range", `max_retries = 21`, "max_retries", "Invalid Attribute Value", `must be between 0 and 20`},
		{"malformed request_timeout", `request_timeout = "soon"`, "request_timeout", "Invalid request_timeout", `must be a positive duration`},
		{"negative requests_per_minute", `requests_per_minute = -5`, "requests_per_minute", "Invalid Attribute Value", `must be at least 0`},
		{"malformed retry_wait_max", `retry_wait_max = "-1s"`, "retry_wait_max", "Invalid retry_wait_max", `must be a positive duration`},
	} {
		cases = append(cases, badInput{what: p.what, provider: "  " + p.setting + "\n", body: record(""),
			attr: p.attr, summary: p.summary, detail: p.detail})
	}
	return cases
}

// TestAccConfigResource_badInput: bad values are refused at validate or
// plan time, with the attribute named (Terraform shows its line), before
// any request to the service: on the local API the test has one of its
// own, which must have counted no request.
func TestAccConfigResource_badInput(t *testing.T) {
	for i, tc := range acctest.KindCases(t) {
		t.Run(tc.Kind.Name, func(t *testing.T) {
			host, key := "", acctest.KeyWrite
			var local *localapi.Server
			if acctest.AccEnabled() && !acctest.IsLive() {
				host, local = acctest.IsolatedAPI(t, nil)
			}
			// The provider block: the test's API, with a case's setting
			// in place of the one it replaces.
			providerBlock := func(setting string) string {
				block := "provider \"pipeline\" {\n" + setting
				if host != "" {
					for name, v := range map[string]string{"host": host, "api_key": key, "project_id": "1"} {
						if !strings.HasPrefix(strings.TrimSpace(setting), name+" ") {
							block += fmt.Sprintf("  %s = %q\n", name, v)
						}
					}
				}
				return block + "}\n"
			}
			cases := badInputs(tc, i == 0)
			steps := make([]resource.TestStep, 0, len(cases))
			for _, c := range cases {
				want := `(?s)Error: ` + c.summary
				if c.attr != "" {
					want += `.*?\n\s*\d+:\s+` + c.attr + `\s+=`
				}
				// Terraform wraps long lines: any space may be a line break.
				want += `.*` + strings.ReplaceAll(c.detail, " ", `\s+`)
				steps = append(steps, resource.TestStep{
					Config:      providerBlock(c.provider) + c.body,
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(want),
				})
			}
			if len(cases) < 15 {
				t.Fatalf("%d kinds of bad input, want at least 15", len(cases))
			}
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { acctest.PreCheckWithoutCreates(t) },
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
}

// TestAccConfigResource_serviceError: what only the service knows (the
// plugin does not exist) is reported naming the operation, the status and
// the service's detail, on the attribute the service names.
func TestAccConfigResource_serviceError(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config: tc.Config("missing", "  plugin = 999999"),
				ExpectError: regexp.MustCompile(`(?s)Could not create ` + tc.Kind.Noun +
					`.*plugin = 999999.*answered 400 Bad\s+Request.*does not exist.*Attribute: plugin`),
			}},
		})
	})
}
