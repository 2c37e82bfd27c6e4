package datasources_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// successor is hog_function as `terraform output -json` shows it.
type successor struct {
	Available       bool     `json:"available"`
	Reason          *string  `json:"reason"`
	TemplateID      *string  `json:"template_id"`
	TemplateStatus  *string  `json:"template_status"`
	Type            *string  `json:"type"`
	Name            *string  `json:"name"`
	Description     *string  `json:"description"`
	InputsJSON      *string  `json:"inputs_json"`
	SecretInputs    []string `json:"secret_inputs"`
	DroppedSettings []string `json:"dropped_settings"`
	FiltersJSON     *string  `json:"filters_json"`
	ExecutionOrder  *int64   `json:"execution_order"`
	Enabled         bool     `json:"enabled"`
	ExistingID      *string  `json:"existing_id"`
}

func ptr(s string) *string { return &s }

// TestAccConfigDataSources_hogFunction reads the way off of each kind of
// config through both config data sources, against today's service with
// PostHog's template catalog: a stable template (Taxonomy), a deprecated one
// keeping a secret and dropping a setting (Anonymization), a deprecated one
// keeping one of two settings (Currency Normalizer), GeoIP's hidden one, an
// import app, and a config PostHog's own migration already moved. Each is
// checked against the service: the template's status, the inputs and
// filters the service answers for a function made from it, and the id of
// the function that exists. A key without hog_function:read reads the
// configs with a warning, and the successors it cannot tell are unknown.
func TestAccConfigDataSources_hogFunction(t *testing.T) {
	acctest.SkipUnlessAcc(t)
	host, local := acctest.IsolatedAPIWith(t, localapi.Options{Today: true, Generation: localapi.Generation1,
		Plugins: localapitest.WithAnonymization()}, nil)
	api := acctest.ClientFor(t, host, localapi.KeyFull)
	mk := func(coll client.Collection, plugin, order int64, enabled bool, settings string) int64 {
		t.Helper()
		rec, err := api.Create(context.Background(), "1", coll, client.RecordInput{Plugin: client.Some(plugin),
			Order: client.Some(order), Enabled: client.Some(enabled), Settings: client.Some(json.RawMessage(settings))})
		if err != nil {
			t.Fatal(err)
		}
		return rec.ID
	}
	// Only the config to be moved is enabled when PostHog migrates.
	moved := mk(client.Transformations, 2, 3, true, `{"properties":"$ip"}`)
	if _, err := local.BulkMigrate(1, localapi.BulkMigration{}); err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{
		"moved":         moved,
		"taxonomy":      mk(client.Transformations, 5, 1, true, `{"defaultNamingConvention":"snake_case"}`),
		"anonymization": mk(client.Transformations, localapitest.AnonymizationPlugin, 2, false, `{"salt":"pepper","privateFields":"email","legacyOption":"x"}`),
		"currency":      mk(client.Transformations, 8, 4, true, `{"apiKey":"k3y","normalizedCurrency":"EUR"}`),
		"geoip":         mk(client.Transformations, 1, 5, true, `{"locale":"en","api_key":"s3cret"}`),
		"s3":            mk(client.ImportApps, 3, 6, true, `{"bucket":"events"}`),
	}
	if err := local.SetGeneration(localapi.Generation2); err != nil { // today's service
		t.Fatal(err)
	}
	var movedFn localapi.HogFunction
	for _, f := range local.HogFunctions() {
		if f.SourceConfigID != nil && *f.SourceConfigID == moved {
			movedFn = f
		}
	}
	if movedFn.ID == "" {
		t.Fatalf("the bulk migration made no function of config %d: %+v", moved, local.HogFunctions())
	}

	body := fmt.Sprintf(`
data "pipeline_transformation_configs" "all" {}
data "pipeline_import_app_configs" "all" {}
data "pipeline_transformation_config" "moved" {
  id = %d
}

output "successors" {
  value = merge(
    { for c in data.pipeline_transformation_configs.all.configs : tostring(c.id) => c.hog_function },
    { for c in data.pipeline_import_app_configs.all.configs : tostring(c.id) => c.hog_function },
  )
}

output "moved" {
  value = data.pipeline_transformation_config.moved.hog_function
}
`, moved)
	tf := acctest.NewTerraform(t, acctest.ProviderBlock(host, localapi.KeyOrg, "1")+body, nil)
	if out, err := tf.Run("apply", "-auto-approve", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	} else if strings.Contains(out, "Warning:") {
		t.Errorf("a key with hog_function:read got a warning:\n%s", out)
	}
	got := readSuccessors(t, tf)
	single := readOutput[successor](t, tf, "moved")

	want := map[string]successor{
		"taxonomy": {Available: true, TemplateID: ptr("plugin-taxonomy-plugin"), TemplateStatus: ptr("stable"),
			Type: ptr("transformation"), Name: ptr("Taxonomy Standardizer"),
			InputsJSON: ptr(`{"defaultNamingConvention":{"value":"snake_case"}}`), SecretInputs: []string{}, DroppedSettings: []string{},
			ExecutionOrder: i64(1), Enabled: true},
		"anonymization": {Available: true, TemplateID: ptr("plugin-posthog-anonymization"), TemplateStatus: ptr("deprecated"),
			Type: ptr("transformation"), Name: ptr("Anonymization"),
			InputsJSON: ptr(`{"privateFields":{"value":"email"}}`), SecretInputs: []string{"salt"}, DroppedSettings: []string{"legacyOption"},
			ExecutionOrder: i64(2), Enabled: false},
		"currency": {Available: false, TemplateID: ptr("plugin-currency-normalization-plugin"), TemplateStatus: ptr("deprecated"),
			Type: ptr("transformation"), Name: ptr("Currency Normalizer"),
			InputsJSON: ptr(`{"normalizedCurrency":{"value":"EUR"}}`), SecretInputs: []string{}, DroppedSettings: []string{"apiKey"},
			ExecutionOrder: i64(4), Enabled: true},
		"geoip": {Available: false, TemplateID: ptr("plugin-posthog-plugin-geoip"), TemplateStatus: ptr("hidden"),
			Type: ptr("transformation"), Name: ptr("GeoIP"), InputsJSON: ptr(`{}`), SecretInputs: []string{},
			DroppedSettings: []string{"api_key", "locale"}, ExecutionOrder: i64(5), Enabled: true},
		"moved": {Available: true, TemplateID: ptr("plugin-property-filter-plugin"), TemplateStatus: ptr("deprecated"),
			Type: ptr("transformation"), Name: ptr("Property Filter"),
			InputsJSON: ptr(`{"properties":{"value":"$ip"}}`), SecretInputs: []string{}, DroppedSettings: []string{},
			ExecutionOrder: i64(3), Enabled: movedFn.Enabled, ExistingID: ptr(movedFn.ID)},
		"s3": {Available: false, Enabled: true},
	}
	reasons := map[string]string{
		"geoip": "is internal (hidden)", "moved": "PostHog already made hog function " + movedFn.ID,
		"s3": "Import apps have no hog function successor", "currency": "requires inputs the config does not hold (openExchangeRatesApiKey)",
	}
	for name, id := range ids {
		key := fmt.Sprint(id)
		g, w := got[key], want[name]
		w.Reason, w.Description, w.FiltersJSON = g.Reason, g.Description, g.FiltersJSON // checked below
		if !equalSuccessors(g, w) {
			t.Errorf("%s (config %d): hog_function\n got %s\nwant %s", name, id, show(g), show(w))
		}
		if r := reasons[name]; r != "" && (g.Reason == nil || !strings.Contains(*g.Reason, r)) {
			t.Errorf("%s: reason %v, want one saying %q", name, deref(g.Reason), r)
		}
		if name == "taxonomy" && g.Reason != nil {
			t.Errorf("%s: reason %q, want none", name, *g.Reason)
		}
		if name != "s3" {
			checkAsTheServiceAnswers(t, host, name, g)
		}
	}
	if !equalSuccessors(single, got[fmt.Sprint(moved)]) {
		t.Errorf("the single-config data source shows %s, the list %s", show(single), show(got[fmt.Sprint(moved)]))
	}

	// A key without hog_function:read: the configs, a warning, nothing guessed.
	tf.WriteConfig(acctest.ProviderBlock(host, localapi.KeyWrite, "1") + body)
	out, err := tf.Run("apply", "-auto-approve", "-no-color")
	if err != nil {
		t.Fatalf("apply with a key without hog_function:read: %v\n%s", err, out)
	}
	if !strings.Contains(out, "Warning: Hog function templates could not be read") || !strings.Contains(out, "hog_function:read") {
		t.Errorf("no warning naming the missing scope:\n%s", out)
	}
	got = readSuccessors(t, tf)
	for name, id := range ids {
		g := got[fmt.Sprint(id)]
		if g.Available || g.TemplateStatus != nil || g.InputsJSON != nil || g.ExistingID != nil || g.Reason == nil {
			t.Errorf("%s without hog_function:read: %s, want unavailable with a reason and nothing guessed", name, show(g))
		}
	}
}

// checkAsTheServiceAnswers creates a hog function from g's template with
// g's arguments (a legacy-free key with the hog function scopes) where the
// template allows it, and checks that what the official provider reads back
// of the answer is g's inputs_json and filters_json byte for byte.
func checkAsTheServiceAnswers(t *testing.T, host, name string, g successor) {
	t.Helper()
	if !g.Available {
		return
	}
	var inputs map[string]any
	if err := json.Unmarshal([]byte(deref(g.InputsJSON)), &inputs); err != nil {
		t.Fatalf("%s: inputs_json %v: %v", name, deref(g.InputsJSON), err)
	}
	for _, k := range g.SecretInputs {
		inputs[k] = map[string]any{"value": "supplied again"}
	}
	body := map[string]any{"type": deref(g.Type), "template_id": deref(g.TemplateID), "name": deref(g.Name), "inputs": inputs}
	var answer struct {
		Inputs  map[string]any `json:"inputs"`
		Filters map[string]any `json:"filters"`
	}
	callJSON(t, host+"/api/projects/1/hog_functions/", body, &answer)
	readBack := map[string]any{}
	var sent map[string]any
	_ = json.Unmarshal([]byte(deref(g.InputsJSON)), &sent)
	for k := range sent { // the official provider keeps the keys it was given
		readBack[k] = stripped(answer.Inputs[k])
	}
	if b, _ := json.Marshal(readBack); string(b) != deref(g.InputsJSON) {
		t.Errorf("%s: the service answers inputs that read back as %s, inputs_json is %s", name, b, deref(g.InputsJSON))
	}
	if b, _ := json.Marshal(stripped(answer.Filters)); string(b) != deref(g.FiltersJSON) {
		t.Errorf("%s: the service answers filters that read back as %s, filters_json is %s", name, b, deref(g.FiltersJSON))
	}
}

// callJSON POSTs body to url with a key that may write hog functions and
// decodes the 201 answer into out.
func callJSON(t *testing.T, url string, body, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+localapi.KeyOrg)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST %s: %d %s", url, resp.StatusCode, answer)
	}
	if err := json.Unmarshal(answer, out); err != nil {
		t.Fatalf("POST %s: %v: %s", url, err, answer)
	}
}

// stripped is v without the keys the official provider strips.
func stripped(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if k != "bytecode" && k != "order" && k != "templating" {
				out[k] = stripped(e)
			}
		}
		return out
	case []any:
		for i := range v {
			v[i] = stripped(v[i])
		}
	}
	return v
}

func readSuccessors(t *testing.T, tf *acctest.Terraform) map[string]successor {
	t.Helper()
	return readOutput[map[string]successor](t, tf, "successors")
}

func readOutput[T any](t *testing.T, tf *acctest.Terraform, name string) T {
	t.Helper()
	var v T
	out, err := tf.Run("output", "-json", name)
	if err == nil {
		err = json.Unmarshal([]byte(out), &v)
	}
	if err != nil {
		t.Fatalf("output %s: %v\n%s", name, err, out)
	}
	return v
}

func equalSuccessors(a, b successor) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb) && slices.Equal(a.SecretInputs, b.SecretInputs)
}

func show(s successor) string { b, _ := json.Marshal(s); return string(b) }

func deref(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}

func i64(n int64) *int64 { return &n }
