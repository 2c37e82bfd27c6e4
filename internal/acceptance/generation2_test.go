package acceptance

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// gen2Configs renders the configs of both kinds that the generation 2 test
// manages: two per kind (a and b; the transformations' a with filters when
// filters is set), both orders, and, once updated, a changed name,
// description and enabled flag, orders reversed, and data sources of each
// kind with outputs.
func gen2Configs(cases []acctest.KindCase, filters, updated bool) string {
	var b strings.Builder
	for _, tc := range cases {
		typ := tc.TypeName
		aBody := fmt.Sprintf("  plugin  = %d\n  enabled = true\n  name    = \"a\"\n", tc.Plugins[0])
		if updated {
			aBody = fmt.Sprintf("  plugin      = %d\n  enabled     = false\n  name        = \"a2\"\n  description = \"changed at generation 2\"\n", tc.Plugins[0])
		}
		if filters && tc.Kind.Name == "transformation" {
			aBody += `  filters = jsonencode({ events = [{ id = "$pageview", type = "events" }] })` + "\n"
		}
		sequence := fmt.Sprintf("[%[1]s.a.id, %[1]s.b.id]", typ)
		if updated {
			sequence = fmt.Sprintf("[%[1]s.b.id, %[1]s.a.id]", typ)
		}
		fmt.Fprintf(&b, `
resource %[1]q "a" {
%[2]s}

resource %[1]q "b" {
  plugin  = %[3]d
  enabled = true
  name    = "b"
}

resource "pipeline_%[4]s_order" "all" {
  config_ids = %[5]s
}
`, typ, aBody, tc.Plugins[1], tc.Kind.Name, sequence)
		if updated {
			fmt.Fprintf(&b, `
data %[1]q "a" {
  id = %[1]s.a.id
}

data "%[1]ss" "all" {
  depends_on = [%[1]s.a, %[1]s.b]
}

data "%[1]s_frontend" "b" {
  config_id = %[1]s.b.id
}

output "%[2]s" {
  value = {
    name     = data.%[1]s.a.name
    enabled  = data.%[1]s.a.enabled
    listed   = sort([for c in data.%[1]ss.all.configs : c.name])
    frontend = data.%[1]s_frontend.b.content_type
  }
}
`, typ, tc.Kind.Name)
		}
	}
	return b.String()
}

// TestAccGeneration2_existingConfigs drives the terraform binary against a
// local API switched to generation 2 after configs of both kinds were
// created under generation 1. The existing configs keep working with empty
// plans: filters still configured are refused on their attribute at plan
// time (never an inconsistent result), and once left out the plan is
// empty; update, disable, reorder, data sources, an import of a config made
// under generation 1 all work, each followed by an empty plan. A create is
// refused with the documented message: one POST for the first create of
// each kind, one hog function for the plugin with a template and none for
// the other, no POST at all once a create made a hog function, nothing in
// state, no create journal entry left; a job resource is told
// at plan time that the service has no job action. Destroy deletes every
// config.
func TestAccGeneration2_existingConfigs(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPI(t, nil)
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	ctx := context.Background()
	outside, err := api.Create(ctx, "2", client.Transformations, client.RecordInput{
		Plugin: client.Some(int64(2)), Order: client.Some(int64(1)), Name: client.Some("outside"),
	})
	if err != nil {
		t.Fatal(err)
	}
	provider := acctest.ProviderBlock(host, localapi.KeyFull, "1")
	cases := acctest.KindCases(t)
	tf := acctest.NewTerraform(t, provider+gen2Configs(cases, true, false), nil)
	run := func(step string, args ...string) (string, error) {
		t.Helper()
		out, err := tf.Run(append(args, "-no-color")...)
		if strings.Contains(out, "inconsistent result") || strings.Contains(out, "panic:") {
			t.Errorf("%s: terraform %s:\n%s", step, args[0], out)
		}
		return out, err
	}
	mustApply := func(step string) string {
		t.Helper()
		out, err := run(step, "apply", "-auto-approve")
		if err != nil {
			t.Fatalf("%s: apply: %v\n%s", step, err, out)
		}
		return out
	}

	mustApply("generation 1")
	if err := local.SetGeneration(localapi.Generation2); err != nil {
		t.Fatal(err)
	}

	// Filters: refused on the attribute at plan time; fine once left out.
	out, err := run("filters", "plan")
	flat := strings.Join(strings.Fields(out), " ")
	if err == nil || !strings.Contains(flat, "Error: The service ignores filters") ||
		!strings.Contains(flat, "with pipeline_transformation_config.a") || !strings.Contains(flat, "filters = jsonencode") {
		t.Fatalf("configured filters at generation 2: want the error on the filters attribute, got %v\n%s", err, out)
	}
	tf.WriteConfig(provider + gen2Configs(cases, false, false))
	tf.EmptyPlan("filters left out")

	// Update, disable, reorder, data sources.
	tf.WriteConfig(provider + gen2Configs(cases, false, true))
	mustApply("update")
	ids := tf.StateIDs()
	for _, tc := range cases {
		name := tc.Kind.Name
		a, b := ids[tc.TypeName+".a"], ids[tc.TypeName+".b"]
		recA, errA := api.Get(ctx, "1", tc.Kind.Collection, a)
		recB, errB := api.Get(ctx, "1", tc.Kind.Collection, b)
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", name, errA, errB)
		}
		if acctest.Deref(recA.Name) != "a2" || acctest.Deref(recA.Description) != "changed at generation 2" || recA.Enabled {
			t.Errorf("%s config a on the API: %+v, want the update applied and disabled", name, recA)
		}
		if !recB.Enabled || recB.Order >= recA.Order {
			t.Errorf("%s: b enabled=%v order %d, a order %d: want b enabled and first", name, recB.Enabled, recB.Order, recA.Order)
		}
		out, err := tf.Run("output", "-json", name)
		if err != nil || !strings.Contains(out, `"name":"a2"`) || !strings.Contains(out, `"enabled":false`) ||
			!strings.Contains(out, `"listed":["a2","b"]`) || !strings.Contains(out, `"frontend":"application/javascript`) {
			t.Errorf("%s: the data sources show %s (%v)", name, out, err)
		}
	}
	tf.EmptyPlan("update")

	// Import a config made under generation 1 outside Terraform.
	imported := gen2Configs(cases, false, true) + fmt.Sprintf(`
import {
  to = pipeline_transformation_config.outside
  id = "2/%d"
}

resource "pipeline_transformation_config" "outside" {
  project_id = "2"
  plugin     = 2
  name       = "outside"
}
`, outside.ID)
	tf.WriteConfig(provider + imported)
	if out := mustApply("import"); !strings.Contains(out, "1 imported, 0 added, 0 changed, 0 destroyed") {
		t.Errorf("import: %s", out)
	}
	tf.EmptyPlan("import")

	// Creates: nothing tells E from D before a create (the notes' table),
	// so the first is sent. Terraform runs creates in any order, and an
	// answer that shows the service makes no configs refuses the creates
	// not yet sent, so each kind comes in an apply of its own: the import
	// app's is refused by the service; the transformation's makes a hog
	// function, which the answer shows (a config without an id); after
	// that, this working directory sends no create to the host at all.
	// Nothing lands in the state.
	local.ResetCounters()
	if err := local.ResetHogFunctions(); err != nil {
		t.Fatal(err)
	}
	const newImportApp = `
resource "pipeline_import_app_config" "new" {
  plugin = 4
}
`
	const newTransformation = `
resource "pipeline_transformation_config" "new" {
  plugin = 1
  config = jsonencode({ locale = "en" })
}
`
	refusedCreate := func(step, config string, creates int64, hogFunctions []int64, wants ...string) {
		t.Helper()
		local.ResetCounters()
		tf.WriteConfig(provider + imported + config)
		out, err := run(step, "apply", "-auto-approve")
		flat := strings.Join(strings.Fields(out), " ")
		if err == nil {
			t.Fatalf("%s: the create succeeded:\n%s", step, out)
		}
		for _, want := range wants {
			if !strings.Contains(flat, want) {
				t.Errorf("%s: the refusal does not say %q:\n%s", step, want, out)
			}
		}
		if c := local.Counters(); c["create"] != creates || c["update"] != 0 || c["delete"] != 0 {
			t.Errorf("%s: writes counted %v, want %d creates", step, c, creates)
		}
		var plugins []int64
		for _, h := range local.HogFunctions() {
			plugins = append(plugins, h.Plugin)
		}
		if fmt.Sprint(plugins) != fmt.Sprint(hogFunctions) {
			t.Errorf("%s: hog functions of plugins %v, want %v", step, plugins, hogFunctions)
		}
	}
	refusedCreate("import app create", newImportApp, 1, nil,
		"Error: The service no longer creates import app configs", "Plugin creation is no longer possible",
		"posthog_hog_function")
	refusedCreate("transformation create", newTransformation, 1, []int64{1},
		"Error: The service made a hog function instead of a transformation config",
		"The request was not sent again", "posthog_hog_function")
	refusedCreate("both creates, after the hog function", newImportApp+newTransformation, 0, []int64{1},
		"Error: The service no longer creates import app configs",
		"Error: The service no longer creates transformation configs", "so nothing was sent")

	// A job: refused at plan time, the job route answering 404: the
	// service has had no job action since late 2024. Nothing is sent.
	tf.WriteConfig(provider + imported + `
resource "pipeline_transformation_job" "reprocess" {
  config_id = pipeline_transformation_config.b.id
  job_type  = "Reprocess"
  payload   = jsonencode({ since = "2024-01-01" })
}
`)
	out, err = run("refused job", "apply", "-auto-approve")
	flat = strings.Join(strings.Fields(out), " ")
	if err == nil {
		t.Fatalf("the job succeeded:\n%s", out)
	}
	for _, want := range []string{
		"Error: The service no longer runs plugin jobs",
		"answer 404 for it), so nothing was sent.",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the job's refusal does not say %q", want)
		}
	}
	c := local.Counters()
	if c["job"] != 0 || len(local.Jobs()) != 0 {
		t.Errorf("job requests %d, jobs run %v: want none", c["job"], local.Jobs())
	}
	state := tf.StateIDs()
	for _, addr := range []string{"pipeline_transformation_config.new", "pipeline_import_app_config.new", "pipeline_transformation_job.reprocess"} {
		if _, ok := state[addr]; ok {
			t.Errorf("%s is in the state", addr)
		}
	}
	if files := journalFiles(t, tf.Dir); len(files) != 0 {
		t.Errorf("the create journal holds %v after the refusals: a finished run must leave nothing for a later run", files)
	}
	tf.WriteConfig(provider + imported)
	tf.EmptyPlan("after the refusals")

	// Destroy deletes every config, the imported one included.
	ids = tf.StateIDs()
	if _, err := run("destroy", "destroy", "-auto-approve"); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	for addr, id := range ids {
		coll, project := client.Transformations, "1"
		switch {
		case strings.HasPrefix(addr, "pipeline_import_app_config."):
			coll = client.ImportApps
		case addr == "pipeline_transformation_config.outside":
			project = "2"
		case !strings.HasPrefix(addr, "pipeline_transformation_config."):
			continue
		}
		if rec, err := api.Get(ctx, project, coll, id); err != nil || !rec.Deleted || rec.Enabled {
			t.Errorf("%s (config %d) after destroy: %+v %v, want deleted", addr, id, rec, err)
		}
	}
}

// journalFiles returns the files of the create journal in a working
// directory: those of runs that did not finish.
func journalFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, ".terraform", "pipeline-provider", "creates", "*", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}
