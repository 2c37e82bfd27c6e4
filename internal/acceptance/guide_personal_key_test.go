package acceptance

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// TestAccGuide_movingToHogFunctions runs the guide "Moving to hog
// functions" step by step, with its own files as they are (its one
// terraform block included), through the terraform binary, with the
// official PostHog provider (its stand-in, or the real binary under make
// check-official), against today's service with PostHog's template
// catalog: the configs managed before, one of them already moved by
// PostHog's own migration; step 1 reads what can succeed each config into a
// file; step 2 imports the hog function PostHog made and writes the missing
// ones; step 3 disables the moved configs; step 4 lets them go. Every
// step's next plan is empty. In the end the service holds one live hog
// function per config with a usable template, with the config's settings
// that the template keeps, its secret, order and flag; the one PostHog made
// is the same function, not a second; none for GeoIP's hidden template or
// the import app, whose configs stay as they were; the moved configs are
// disabled, none deleted; and no config was created or migrated.
func TestAccGuide_movingToHogFunctions(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPIWith(t, localapi.Options{Today: true, Generation: localapi.Generation1,
		Plugins: localapitest.WithAnonymization()}, nil)
	const salt = "s4lt"
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	mk := func(coll client.Collection, in client.RecordInput) int64 {
		t.Helper()
		rec, err := api.Create(context.Background(), "1", coll, in)
		if err != nil {
			t.Fatal(err)
		}
		return rec.ID
	}
	settings := func(s string) client.Opt[json.RawMessage] { return client.Some(json.RawMessage(s)) }
	// The configs as they were made while the service still made them; PostHog's
	// migration moved the one that was enabled then (and disabled it).
	ids := map[string]int64{"property_filter": mk(client.Transformations, client.RecordInput{Plugin: client.Some(int64(2)),
		Order: client.Some(int64(3)), Enabled: client.Some(true), Settings: settings(`{"properties":"$ip"}`)})}
	made, err := local.BulkMigrate(1, localapi.BulkMigration{})
	if err != nil || len(made) != 1 {
		t.Fatalf("PostHog's migration made %+v: %v", made, err)
	}
	movedFn := made[0].ID
	ids["taxonomy"] = mk(client.Transformations, client.RecordInput{Plugin: client.Some(int64(5)), Order: client.Some(int64(1)),
		Enabled: client.Some(true), Settings: settings(`{"defaultNamingConvention":"snake_case"}`)})
	ids["anonymization"] = mk(client.Transformations, client.RecordInput{Plugin: client.Some(int64(localapitest.AnonymizationPlugin)),
		Order: client.Some(int64(2)), Enabled: client.Some(true),
		Settings: settings(`{"privateFields":"email","legacyOption":"on","salt":"` + salt + `"}`)})
	ids["geoip"] = mk(client.Transformations, client.RecordInput{Plugin: client.Some(int64(1)), Order: client.Some(int64(4)),
		Enabled: client.Some(true), Settings: settings(`{"locale":"en"}`)})
	ids["s3"] = mk(client.ImportApps, client.RecordInput{Plugin: client.Some(int64(3)), Order: client.Some(int64(1)),
		Enabled: client.Some(true), Settings: settings(`{"bucket":"events"}`)})
	if err := local.SetGeneration(localapi.Generation2); err != nil { // today's service
		t.Fatal(err)
	}

	env := postHogEnv(host)
	env["TF_VAR_anonymization_salt"] = salt
	step := func(files ...string) string {
		var b strings.Builder
		for _, f := range files {
			b.WriteString(guideFile(t, "moving-to-hog-functions", strings.Split(f, "/")...) + "\n")
		}
		return b.String()
	}
	before := []string{"0-before/versions.tf", "0-before/main.tf", "0-before/undecided.tf"}
	setup := withOfficialPostHog(t, acctest.TerraformSetup{Env: env, OwnTerraformBlock: true})
	tf := acctest.NewTerraformWith(t, step(before...), setup)
	apply := func(what string) string {
		t.Helper()
		out, err := tf.Run("apply", "-auto-approve", "-no-color")
		if err != nil {
			t.Fatalf("%s: apply: %v\n%s", what, err, out)
		}
		tf.EmptyPlan(what)
		return out
	}
	addrs := map[string]string{"property_filter": "pipeline_transformation_config.property_filter",
		"taxonomy": "pipeline_transformation_config.taxonomy", "anonymization": "pipeline_transformation_config.anonymization",
		"geoip": "pipeline_transformation_config.geoip", "s3": "pipeline_import_app_config.s3"}
	for name, addr := range addrs {
		if out, err := tf.Run("import", "-no-color", addr, fmt.Sprint(ids[name])); err != nil {
			t.Fatalf("import %s: %v\n%s", addr, err, out)
		}
	}
	apply("before") // sends the imported anonymization config's secret once
	local.ResetCounters()
	undecided := snapshotConfigs(t, api, ids["geoip"], ids["s3"])

	// Step 1: what can succeed each config, kept in a file.
	tf.WriteConfig(step(append(before, "1-read/main.tf")...))
	apply("step 1")
	out, err := tf.Run("output", "-json", "hog_functions")
	if err != nil {
		t.Fatalf("output: %v\n%s", err, out)
	}
	tf.WriteFile("hog_functions.json", out)
	var read map[string]struct {
		TemplateID string  `json:"template_id"`
		ExistingID *string `json:"existing_id"`
	}
	if err := json.Unmarshal([]byte(out), &read); err != nil {
		t.Fatalf("hog_functions %s: %v", out, err)
	}
	wantRead := map[int64]string{ids["taxonomy"]: "plugin-taxonomy-plugin", ids["anonymization"]: "plugin-posthog-anonymization",
		ids["property_filter"]: "plugin-property-filter-plugin"}
	if len(read) != len(wantRead) {
		t.Errorf("hog_functions has %d configs, want %d (no GeoIP, no import app): %s", len(read), len(wantRead), out)
	}
	for id, template := range wantRead {
		h, ok := read[fmt.Sprint(id)]
		wantExisting := id == ids["property_filter"]
		if !ok || h.TemplateID != template || (h.ExistingID != nil) != wantExisting ||
			wantExisting && *h.ExistingID != movedFn {
			t.Errorf("hog_functions[%d] = %+v, want template %s (existing %s: %v)", id, h, template, movedFn, wantExisting)
		}
	}
	undecidedOut, err := tf.Run("output", "-json", "undecided")
	if err != nil {
		t.Fatalf("output undecided: %v\n%s", err, undecidedOut)
	}
	for _, want := range []string{fmt.Sprintf(`"%d: GeoIP"`, ids["geoip"]), "is internal (hidden)",
		fmt.Sprintf(`"%d: S3 Import"`, ids["s3"]), "Import apps have no hog function successor"} {
		if !strings.Contains(undecidedOut, want) {
			t.Errorf("undecided does not say %s:\n%s", want, undecidedOut)
		}
	}

	// Step 2: PostHog's function imported, the missing ones written.
	tf.WriteConfig(step("2-hog-functions/versions.tf", "0-before/main.tf", "0-before/undecided.tf", "2-hog-functions/main.tf"))
	tf.WriteFile("secrets.auto.tfvars", fmt.Sprintf("secret_inputs = { %q = { salt = %q } }\n", fmt.Sprint(ids["anonymization"]), salt))
	if out, err := tf.Run("init", "-no-color"); err != nil { // the guide's step 2 adds the official provider
		t.Fatalf("step 2: init: %v\n%s", err, out)
	}
	out = apply("step 2")
	if !strings.Contains(out, "1 imported, 2 added") {
		t.Errorf("step 2 did not import one function and add two:\n%s", out)
	}
	want := map[int64]wantFunction{
		ids["taxonomy"]: {template: "plugin-taxonomy-plugin", order: 1, enabled: true,
			inputs: map[string]any{"defaultNamingConvention": "snake_case"}},
		ids["anonymization"]: {template: "plugin-posthog-anonymization", order: 2, enabled: true,
			inputs: map[string]any{"privateFields": "email", "salt": salt}},
		ids["property_filter"]: {id: movedFn, template: "plugin-property-filter-plugin", order: 3, enabled: true,
			inputs: map[string]any{"properties": "$ip"}},
	}
	checkHogFunctions(t, local, want)
	stateFns := tf.StateOf("terraform.tfstate")
	for id, w := range want {
		addr := fmt.Sprintf("posthog_hog_function.moved[%d]", id)
		var got string
		if in, ok := stateFns[addr]; !ok || json.Unmarshal(in.Attributes["id"], &got) != nil || w.id != "" && got != w.id {
			t.Errorf("%s holds %q, want the function of config %d (%q)", addr, got, id, w.id)
		}
	}

	// Step 3: the moved configs disabled; the functions stay as they are.
	tf.WriteConfig(step("2-hog-functions/versions.tf", "3-disable/main.tf", "0-before/undecided.tf", "2-hog-functions/main.tf"))
	apply("step 3")
	checkHogFunctions(t, local, want)

	// Step 4: the moved configs let go, nothing destroyed.
	tf.WriteConfig(step("2-hog-functions/versions.tf", "4-removed/main.tf", "0-before/undecided.tf", "2-hog-functions/main.tf"))
	out = apply("step 4")
	if !regexp.MustCompile(`Resources: .*\b0 destroyed\b`).MatchString(out) {
		t.Errorf("step 4 destroyed something:\n%s", out)
	}
	left := tf.StateIDs()
	for name, addr := range addrs {
		_, held := left[addr]
		if keep := name == "geoip" || name == "s3"; held != keep {
			t.Errorf("%s in the state after step 4: %v, want %v", addr, held, keep)
		}
	}
	for _, name := range []string{"taxonomy", "anonymization", "property_filter"} {
		rec, err := api.Get(context.Background(), "1", client.Transformations, ids[name])
		if err != nil || rec.Deleted || rec.Enabled {
			t.Errorf("config %s (%d): %+v %v, want kept and disabled", name, ids[name], rec, err)
		}
	}
	if got := snapshotConfigs(t, api, ids["geoip"], ids["s3"]); !slices.Equal(got, undecided) {
		t.Errorf("the configs without a successor changed:\n got %v\nwant %v", got, undecided)
	}
	checkHogFunctions(t, local, want)
	if c := local.Counters(); c["create"]+c["migrate"] != 0 || c[hogCreate] != 2 {
		t.Errorf("steps 1 to 4 sent %d config creates, %d migrations and %d hog function creates, want 0, 0 and 2: %v",
			c["create"], c["migrate"], c[hogCreate], c)
	}
}

// hogCreate counts the hog function creates the local API served.
const hogCreate = "hog_function_create"

// wantFunction is a hog function the guide leaves on the service: by id
// when it must be one that existed, else by what it was made of.
type wantFunction struct {
	id       string
	template string
	order    int64
	enabled  bool
	inputs   map[string]any // values, secrets included
}

// checkHogFunctions checks that the service holds exactly one live hog
// function per config of want (by its template and execution order), as
// want describes it.
func checkHogFunctions(t *testing.T, local *localapi.Server, want map[int64]wantFunction) {
	t.Helper()
	var live []localapi.HogFunction
	for _, hf := range local.HogFunctions() {
		if !hf.Deleted {
			live = append(live, hf)
		}
	}
	if len(live) != len(want) {
		t.Errorf("%d live hog functions, want %d: %+v", len(live), len(want), live)
	}
	for config, w := range want {
		var found []localapi.HogFunction
		for _, hf := range live {
			if hf.TemplateID == w.template && hf.ExecutionOrder != nil && *hf.ExecutionOrder == w.order {
				found = append(found, hf)
			}
		}
		if len(found) != 1 {
			t.Errorf("config %d: %d live hog functions of %s at order %d, want one", config, len(found), w.template, w.order)
			continue
		}
		hf := found[0]
		var inputs map[string]struct {
			Value any `json:"value"`
		}
		if err := json.Unmarshal(hf.Inputs, &inputs); err != nil {
			t.Errorf("config %d: the inputs of hog function %s: %v: %s", config, hf.ID, err, hf.Inputs)
			continue
		}
		got := map[string]any{}
		for k, in := range inputs {
			if in.Value != nil {
				got[k] = in.Value
			}
		}
		if w.id != "" && hf.ID != w.id || hf.Enabled != w.enabled || fmt.Sprint(got) != fmt.Sprint(w.inputs) {
			t.Errorf("config %d: hog function %s enabled=%v inputs %v, want %q enabled=%v inputs %v",
				config, hf.ID, hf.Enabled, got, w.id, w.enabled, w.inputs)
		}
	}
}

// snapshotConfigs is what the service shows of configs ids, to compare
// before and after.
func snapshotConfigs(t *testing.T, api *client.Client, ids ...int64) []string {
	t.Helper()
	var out []string
	for _, id := range ids {
		var rec *client.Record
		var err error
		for _, coll := range []client.Collection{client.Transformations, client.ImportApps} {
			if rec, err = api.Get(context.Background(), "1", coll, id); err == nil {
				break
			}
		}
		if err != nil {
			t.Fatalf("config %d: %v", id, err)
		}
		out = append(out, fmt.Sprintf("%d enabled=%v order=%d deleted=%v config=%s updated=%s", id, rec.Enabled, rec.Order,
			rec.Deleted, rec.Settings, rec.UpdatedAt))
	}
	return out
}
