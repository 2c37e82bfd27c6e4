package acceptance

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// The examples users copy, applied as they are against the service as it is
// today (configs made before July 2025, none made since, every key scoped)
// with the key PostHog users are told to make: plugin:read and plugin:write,
// limited to their project (localapi.KeyWrite). Nothing of an example is
// rewritten: the configs it imports exist under the ids it names, and its
// variables are given values.
//
// Left out, because today's service refuses every personal API key for
// them: the jobs and their actions (examples/resources/*_job,
// examples/actions), which run on self-hosted instances older than July
// 2025 only, and the frontends (examples/data-sources/*_config_frontend),
// older than March 2026 only; their tests run against such a service. The
// provider example names a real host: it has nothing to apply.

// exampleConfig is a config an example imports, made under the id the
// example names.
type exampleConfig struct {
	id       int64
	coll     client.Collection
	plugin   int64
	name     string
	enabled  bool
	settings string
}

// examplesConfigs are the configs the resource and data-source examples
// name (42 to 44 transformation configs, 57 to 59 import-app configs), with
// names and settings of their own, as configs made in PostHog's UI have.
var examplesConfigs = []exampleConfig{
	{42, client.Transformations, 1, "GeoIP", true, `{"locale":"de","api_key":"old-key"}`},
	{43, client.Transformations, 2, "Property Filter", true, `{"properties":"$ip"}`},
	{44, client.Transformations, 1, "GeoIP (copy)", false, ""},
	{57, client.ImportApps, 3, "S3", true, `{"bucket":"old-bucket"}`},
	{58, client.ImportApps, 4, "BigQuery", false, ""},
	{59, client.ImportApps, 3, "S3 (copy)", false, ""},
}

// demoConfigs are the configs make demo makes for the README's first
// example, which takes over config 1.
var demoConfigs = []exampleConfig{
	{1, client.Transformations, 1, "GeoIP enrichment", false, ""},
	{2, client.Transformations, 2, "", true, ""},
}

// example is a configuration made of example files, applied on its own.
type example struct {
	name string
	// files are read from examples/ and applied together.
	files []string
	// without are the blocks of files left out, as regular expressions:
	// an import block another way of importing replaces.
	without []string
	// commands run before the apply, as lines of a file under examples/
	// (import.sh), each in a working directory of its own.
	commands string
	// minimum names the tool the example needs: "identity" (an import
	// block by identity, 1.12+), or "" for any.
	minimum string
	configs []exampleConfig
}

// exampleVars are the values of the examples' variables: the secrets the
// config examples send after the import.
var exampleVars = map[string]string{
	"TF_VAR_geoip_api_key":        "new-geoip-key",
	"TF_VAR_s3_secret_access_key": "new-s3-secret",
}

// importBlock is an example's import block, which the examples of importing
// by identity or on the command line replace.
const importBlock = `(?s)# PostHog makes no new configs: take over one that exists, by its id\.\nimport \{.*?\n\}\n`

// TestAccExamples_today applies each example of the resources, data
// sources and the demo as it is (the resource examples also with their
// other ways of importing: by identity, and terraform import): every apply
// succeeds, sends no create and makes no hog function, leaves the configs
// the example names on the service, and the next plan is empty.
func TestAccExamples_today(t *testing.T) {
	var examples []example
	for _, k := range []string{"transformation", "import_app"} {
		res, ds := "resources/pipeline_"+k, "data-sources/pipeline_"+k
		examples = append(examples,
			example{name: res + "_config", files: []string{res + "_config/resource.tf"}, configs: examplesConfigs},
			example{
				name: res + "_config/import-identity", minimum: "identity", configs: examplesConfigs,
				files: []string{res + "_config/resource.tf", res + "_config/import-identity.tf"}, without: []string{importBlock},
			},
			example{
				name: res + "_config/import.sh", configs: examplesConfigs, commands: res + "_config/import.sh",
				files: []string{res + "_config/resource.tf"}, without: []string{importBlock},
			},
			example{name: res + "_order", files: []string{res + "_order/resource.tf", res + "_order/check.tf"}, configs: examplesConfigs},
			example{
				name: res + "_order/import-identity", minimum: "identity", configs: examplesConfigs,
				files: []string{res + "_order/resource.tf", res + "_order/check.tf", res + "_order/import-identity.tf"},
			},
			example{
				name: res + "_order/import.sh", configs: examplesConfigs, commands: res + "_order/import.sh",
				files: []string{res + "_order/resource.tf", res + "_order/check.tf"},
			},
			example{name: ds + "_plugins", files: exampleDir(t, ds+"_plugins"), configs: examplesConfigs},
			example{name: ds + "_configs", files: exampleDir(t, ds+"_configs"), configs: examplesConfigs},
			example{name: ds + "_config", files: exampleDir(t, ds+"_config"), configs: examplesConfigs},
		)
	}
	examples = append(examples, example{name: "demo", files: []string{"demo/main.tf"}, configs: demoConfigs})
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			t.Parallel()
			if ex.minimum == "identity" {
				acctest.SkipWithoutIdentityImport(t)
			}
			host, local := todayWithConfigs(t, ex.configs)
			tf := exampleTerraform(t, host, exampleText(t, ex))
			if ex.commands != "" {
				runCommands(t, tf, ex.commands)
			}
			local.ResetCounters()
			mustApply(t, tf)
			checkExampleApplied(t, host, local, ex.configs)
			tf.EmptyPlan("after the example " + ex.name)
		})
	}
}

// TestAccExamples_listResources runs the list resources' examples with
// terraform query against today's service (Terraform 1.14+): each lists
// the configs it names, and terraform query -generate-config-out writes a
// configuration whose apply imports them and whose next plan is empty.
func TestAccExamples_listResources(t *testing.T) {
	for _, k := range []struct {
		name string
		coll client.Collection
		// enabled are the configs the narrowed list names: the enabled
		// ones of the plugin it names.
		enabled []int64
	}{{"transformation", client.Transformations, []int64{42}}, {"import_app", client.ImportApps, []int64{57}}} {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			acctest.SkipBelowTerraform(t, "1.14.0")
			host, local := todayWithConfigs(t, examplesConfigs)
			tf := exampleTerraform(t, host, "")
			tf.WriteFile("list.tfquery.hcl", readExample(t, "list-resources/pipeline_"+k.name+"_config/list-resource.tfquery.hcl"))
			out, err := tf.Run("query", "-no-color")
			if err != nil {
				t.Fatalf("terraform query: %v\n%s", err, out)
			}
			var all []int64
			for _, c := range examplesConfigs {
				if c.coll == k.coll {
					all = append(all, c.id)
				}
			}
			for list, want := range map[string][]int64{"all": all, "enabled": k.enabled} {
				if got := listed(out, "pipeline_"+k.name+"_config", list); !slices.Equal(got, want) {
					t.Errorf("terraform query: the list %q names configs %v, want %v:\n%s", list, got, want, out)
				}
			}
			out, err = tf.Run("query", "-no-color", "-generate-config-out=generated.tf")
			if err != nil {
				t.Fatalf("terraform query -generate-config-out: %v\n%s", err, out)
			}
			local.ResetCounters()
			mustApply(t, tf)
			checkExampleApplied(t, host, local, examplesConfigs)
			tf.EmptyPlan("after applying what the list resource's example generated")
		})
	}
}

// listed returns the config ids terraform query's output shows for a list
// block, in its order.
func listed(out, typeName, list string) []int64 {
	re := regexp.MustCompile(`(?m)^\s*list\.` + regexp.QuoteMeta(typeName+"."+list) + `\s+id=(\d+),`)
	var ids []int64
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		id, err := strconv.ParseInt(m[1], 10, 64)
		if err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// TestAccExamples_module applies the module example's README (the module
// called from a root module whose import blocks take its configs over)
// against today's service: the configs are imported, ordered as listed,
// and the next plan is empty.
func TestAccExamples_module(t *testing.T) {
	t.Parallel()
	host, local := todayWithConfigs(t, examplesConfigs)
	readme := readExample(t, "modules/transformation-pipeline/README.md")
	block := regexp.MustCompile("(?s)```terraform\n(.*?)```").FindStringSubmatch(readme)
	if block == nil {
		t.Fatal("the module's README has no terraform block")
	}
	tf := exampleTerraform(t, host, "")
	module, err := filepath.Rel(tf.Dir, examplePath("modules/transformation-pipeline"))
	if err != nil {
		t.Fatal(err)
	}
	const source = `source = "./examples/modules/transformation-pipeline"`
	if !strings.Contains(block[1], source) {
		t.Fatalf("the README's example does not call the module by %s:\n%s", source, block[1])
	}
	tf.WriteConfig(strings.Replace(block[1], source, `source = "`+filepath.ToSlash(module)+`"`, 1))
	mustRun(t, tf, "init", "-no-color")
	local.ResetCounters()
	mustApply(t, tf)
	checkExampleApplied(t, host, local, examplesConfigs)
	tf.EmptyPlan("after the module's example")
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	recs, err := api.ListAll(context.Background(), "1", client.Transformations)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(recs, func(a, b client.Record) int { return int(a.Order - b.Order) })
	if len(recs) < 2 || recs[0].ID != 42 || recs[1].ID != 43 {
		t.Errorf("the transformation configs run in the order %v, want 42 and 43 first, as listed", recs)
	}
}

// todayWithConfigs is a local API of the test's own as the service is
// today, holding configs in project 1 under their ids: made before the
// service moved to today, with configs of project 2 taking the ids before
// them.
func todayWithConfigs(t *testing.T, configs []exampleConfig) (string, *localapi.Server) {
	t.Helper()
	return acctest.IsolatedTodayAPI(t, nil, func(c *client.Client) {
		ctx := context.Background()
		next := int64(1)
		for _, ec := range configs {
			for ; next < ec.id; next++ {
				if _, err := c.Create(ctx, "2", client.Transformations, client.RecordInput{
					Plugin: client.Some(int64(1)), Order: client.Some(int64(1)),
				}); err != nil {
					t.Fatal(err)
				}
			}
			in := client.RecordInput{
				Plugin: client.Some(ec.plugin), Order: client.Some(ec.id), Enabled: client.Some(ec.enabled),
			}
			if ec.name != "" {
				in.Name = client.Some(ec.name)
			}
			if ec.settings != "" {
				in.Settings = client.Some(json.RawMessage(ec.settings))
			}
			rec, err := c.Create(ctx, "1", ec.coll, in)
			if err != nil {
				t.Fatal(err)
			}
			if rec.ID != ec.id {
				t.Fatalf("made config %d, want the example's id %d", rec.ID, ec.id)
			}
			next++
		}
	})
}

// exampleTerraform is a working directory with config, the provider
// configured from the environment as the examples expect, with the key
// limited to project 1.
func exampleTerraform(t *testing.T, host, config string) *acctest.Terraform {
	t.Helper()
	env := map[string]string{"POSTHOG_HOST": host, "POSTHOG_API_KEY": localapi.KeyWrite, "POSTHOG_PROJECT_ID": "1"}
	for k, v := range exampleVars {
		env[k] = v
	}
	// The demo brings its terraform block, as users write it.
	own := strings.Contains(config, "required_providers")
	return acctest.NewTerraformWith(t, config, acctest.TerraformSetup{Env: env, OwnTerraformBlock: own})
}

// exampleText is the example's files, joined, without the blocks it leaves
// out (each of which must be there to leave out).
func exampleText(t *testing.T, ex example) string {
	t.Helper()
	found := make([]bool, len(ex.without))
	var b strings.Builder
	for _, f := range ex.files {
		text := readExample(t, f)
		for i, w := range ex.without {
			re := regexp.MustCompile(w)
			found[i] = found[i] || re.MatchString(text)
			text = re.ReplaceAllString(text, "")
		}
		b.WriteString(text + "\n")
	}
	for i, ok := range found {
		if !ok {
			t.Fatalf("the files %v have no block %s to leave out", ex.files, ex.without[i])
		}
	}
	return b.String()
}

// runCommands runs the terraform commands of an example's shell file, one
// after the other, forgetting what the one before imported.
func runCommands(t *testing.T, tf *acctest.Terraform, file string) {
	t.Helper()
	var ran int
	for _, line := range strings.Split(readExample(t, file), "\n") {
		args := strings.Fields(line)
		if len(args) < 3 || args[0] != "terraform" {
			continue
		}
		if ran > 0 {
			mustRun(t, tf, "state", "rm", args[2])
		}
		mustRun(t, tf, append([]string{args[1], "-no-color"}, args[2:]...)...)
		ran++
	}
	if ran == 0 {
		t.Fatalf("%s has no terraform command", file)
	}
}

// checkExampleApplied checks what an apply of an example left on the
// service: no create sent, no hog function made, and every config the
// example names still there.
func checkExampleApplied(t *testing.T, host string, local *localapi.Server, configs []exampleConfig) {
	t.Helper()
	if c := local.Counters(); c["create"] != 0 {
		t.Errorf("the apply sent %d creates, want none: %v", c["create"], c)
	}
	if made := local.HogFunctions(); len(made) != 0 {
		t.Errorf("the apply made hog functions %+v, want none", made)
	}
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	for _, c := range configs {
		rec, err := api.Get(context.Background(), "1", c.coll, c.id)
		if err != nil {
			t.Errorf("config %d after the apply: %v", c.id, err)
			continue
		}
		if rec.Deleted {
			t.Errorf("config %d was deleted", c.id)
		}
	}
}

// examplePath is a path under examples/.
func examplePath(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "examples", filepath.FromSlash(name))
}

// readExample reads a file under examples/.
func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(examplePath(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// exampleDir lists the .tf files of a directory under examples/.
func exampleDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(examplePath(dir))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tf") {
			files = append(files, dir+"/"+e.Name())
		}
	}
	return files
}
