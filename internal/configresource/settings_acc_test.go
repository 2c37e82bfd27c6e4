package configresource_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// settingsCase is a seeded plugin with one secret and one plain setting.
type settingsCase struct {
	plugin           int64
	secretKey, plain string
}

// settingsPlugins are, per kind, the local API's plugin with a secret
// setting (acctest.SecretPlugins).
var settingsPlugins = func() map[string]settingsCase {
	m := make(map[string]settingsCase, len(acctest.SecretPlugins))
	for k, p := range acctest.SecretPlugins {
		m[k] = settingsCase{plugin: p.Plugin, secretKey: p.SecretKey, plain: p.Plain}
	}
	return m
}()

// body renders the resource body with the plain setting and, when secret is
// not empty, the secret one; version 0 leaves the version out.
func (sc settingsCase) body(plain, secret string, version int) string {
	b := fmt.Sprintf("  plugin = %d\n  config = jsonencode({ %s = %q })\n", sc.plugin, sc.plain, plain)
	if secret != "" {
		b += fmt.Sprintf("  secret_config_wo = jsonencode({ %s = %q })\n", sc.secretKey, secret)
	}
	if version != 0 {
		b += fmt.Sprintf("  secret_config_wo_version = %d\n", version)
	}
	return b
}

// TestAccConfigResource_settings takes a config with a plain and a secret
// setting through its life, per kind, against a local API of its own:
// create, a plain change, a secret rotation, drift repaired and import. At
// each step it checks what the service stores (secrets unmasked, through the
// local API's store), that no secret appears in any plan, in `terraform
// show -json` or in the state file, that the next plan is empty, and which
// requests were made.
func TestAccConfigResource_settings(t *testing.T) {
	if acctest.IsLive() {
		t.Skip("checks the stored secrets: needs the local API")
	}
	// Terraform's working directories go here, so that the state files can
	// be read. Not parallel with other tests: the kinds run in parallel.
	tempDir := t.TempDir()
	t.Setenv("TF_ACC_TEMP_DIR", tempDir)

	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		sc := settingsPlugins[tc.Kind.Name]
		addr := tc.TypeName + ".test"
		secret1, secret2 := "s3cret-one-"+tc.Kind.Name, "s3cret-two-"+tc.Kind.Name
		var log acctest.RequestLog
		var bodies bodyLog
		host, srv := acctest.IsolatedAPI(t, func(h http.Handler) http.Handler { return bodies.wrap(log.Wrap(h)) })
		cfg := func(body string) string {
			return acctest.ProviderBlock(host, acctest.KeyWrite, "1") + tc.Resource("test", body)
		}
		var id int64
		noSecret := noSecretIn(tempDir, &id, secret1, secret2)
		writes := func(want ...string) resource.TestCheckFunc {
			return func(*terraform.State) error {
				return expectWrites(log.Take(), bodies.takeAll(), want, secret1, secret2)
			}
		}

		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					// Create: a POST, then the settings once the config exists.
					PreConfig: func() { log.Take(); bodies.takeAll() },
					Config:    cfg(sc.body("en", secret1, 1)),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
							noSecret,
						},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), noSecret},
					},
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("config"), knownvalue.StringExact(`{"`+sc.plain+`":"en"}`)),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("secret_config_wo"), knownvalue.Null()),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("secret_config_wo_version"), knownvalue.Int64Exact(1)),
						noSecret,
					},
					Check: resource.ComposeAggregateTestCheckFunc(
						acctest.CaptureID(addr, &id),
						// The POST carries no settings: the secrets go once the
						// answer has shown which settings the plugin marks secret.
						writes("POST", "PATCH config="+`{"`+sc.secretKey+`":"`+secret1+`","`+sc.plain+`":"en"}`),
						checkStored(srv, &id, map[string]any{sc.secretKey: secret1, sc.plain: "en"}),
						noSecret.checkFiles(),
					),
				},
				{
					// A plain setting changed: one PATCH without the secret,
					// which the service keeps.
					Config: cfg(sc.body("fr", secret1, 1)),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
							noSecret,
						},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					ConfigStateChecks: []statecheck.StateCheck{noSecret},
					Check: resource.ComposeAggregateTestCheckFunc(
						writes("PATCH config="+`{"`+sc.plain+`":"fr"}`),
						checkStored(srv, &id, map[string]any{sc.secretKey: secret1, sc.plain: "fr"}),
						noSecret.checkFiles(),
					),
				},
				{
					// A new secret alone is not seen...
					Config:           cfg(sc.body("fr", secret2, 1)),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					Check: resource.ComposeAggregateTestCheckFunc(
						writes(),
						checkStored(srv, &id, map[string]any{sc.secretKey: secret1, sc.plain: "fr"}),
					),
				},
				{
					// ...until the version changes: one PATCH sending both.
					Config: cfg(sc.body("fr", secret2, 2)),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
							noSecret,
						},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), noSecret},
					},
					ConfigStateChecks: []statecheck.StateCheck{noSecret},
					Check: resource.ComposeAggregateTestCheckFunc(
						writes("PATCH config="+`{"`+sc.secretKey+`":"`+secret2+`","`+sc.plain+`":"fr"}`),
						checkStored(srv, &id, map[string]any{sc.secretKey: secret2, sc.plain: "fr"}),
						noSecret.checkFiles(),
					),
				},
				{
					// A plain setting changed elsewhere: drift, planned back
					// and repaired by one PATCH; the secret stays.
					PreConfig: func() {
						c := acctest.ClientFor(t, host, acctest.KeyFull)
						if _, err := c.Update(context.Background(), "1", tc.Kind.Collection, id,
							client.RecordInput{Settings: client.Some(json.RawMessage(`{"` + sc.plain + `":"de"}`))}); err != nil {
							t.Fatalf("changing config %d out of band: %v", id, err)
						}
						log.Take()
						bodies.takeAll()
					},
					Config: cfg(sc.body("fr", secret2, 2)),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
							plancheck.ExpectKnownValue(addr, tfjsonpath.New("config"), knownvalue.StringExact(`{"`+sc.plain+`":"fr"}`)),
						},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					Check: resource.ComposeAggregateTestCheckFunc(
						writes("PATCH config="+`{"`+sc.plain+`":"fr"}`),
						checkStored(srv, &id, map[string]any{sc.secretKey: secret2, sc.plain: "fr"}),
					),
				},
				{
					// terraform import: config holds the service's non-secret
					// settings, the same as after the apply; the version is
					// not known to the service.
					Config:                  cfg(sc.body("fr", secret2, 2)),
					ResourceName:            addr,
					ImportState:             true,
					ImportStateIdFunc:       acctest.ImportID(addr, true),
					ImportStateVerify:       true,
					ImportStateVerifyIgnore: []string{"secret_config_wo_version"},
				},
				{
					// An import block without a version: nothing to do.
					Config:            cfg(sc.body("fr", secret2, 0)),
					ResourceName:      addr,
					ImportState:       true,
					ImportStateKind:   resource.ImportBlockWithID,
					ImportStateIdFunc: acctest.ImportID(addr, true),
				},
				{
					// With a version, the imported config is updated once, to
					// send the secrets Terraform cannot know the service has.
					Config:             cfg(sc.body("fr", secret2, 2)),
					ResourceName:       addr,
					ImportState:        true,
					ImportStateKind:    resource.ImportBlockWithID,
					ImportStateIdFunc:  acctest.ImportID(addr, true),
					ExpectNonEmptyPlan: true,
					ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("config"), knownvalue.StringExact(`{"`+sc.plain+`":"fr"}`)),
						noSecret,
					}},
				},
				{
					// The settings left out: no longer managed, nothing is
					// sent (only the version leaves state).
					PreConfig: func() { log.Take(); bodies.takeAll() },
					Config:    cfg(fmt.Sprintf("  plugin = %d\n", sc.plugin)),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
							plancheck.ExpectKnownValue(addr, tfjsonpath.New("config"), knownvalue.StringExact(`{"`+sc.plain+`":"fr"}`)),
						},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					Check: resource.ComposeAggregateTestCheckFunc(
						writes(),
						checkStored(srv, &id, map[string]any{sc.secretKey: secret2, sc.plain: "fr"}),
					),
				},
			},
		})
	})
}

// TestAccConfigResource_settingsRefused: settings in the wrong attribute are
// refused, naming it, at plan time when the plugin's schema is known (an
// update) and right after the create otherwise, which deletes the config
// again; the same key in both attributes and non-objects are refused before
// any request.
func TestAccConfigResource_settingsRefused(t *testing.T) {
	if acctest.IsLive() {
		t.Skip("uses the local API's seeded plugins")
	}
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		sc := settingsPlugins[tc.Kind.Name]
		host, srv := acctest.IsolatedAPI(t, nil)
		cfg := func(body string) string {
			return acctest.ProviderBlock(host, acctest.KeyWrite, "1") + tc.Resource("test", body)
		}
		plugin := fmt.Sprintf("  plugin = %d\n", sc.plugin)
		secretInConfig := plugin + fmt.Sprintf("  config = jsonencode({ %s = \"leak\" })\n", sc.secretKey)
		plainInSecret := plugin + fmt.Sprintf("  secret_config_wo = jsonencode({ %s = \"x\" })\n  secret_config_wo_version = 1\n", sc.plain)
		var id int64

		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { acctest.PreCheck(t) },
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			Steps: []resource.TestStep{
				{
					Config:      cfg(plugin + `  config = jsonencode(["a"])`),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)config must be a JSON\s+object`),
				},
				{
					Config:      cfg(plugin + "  secret_config_wo = \"nope\"\n  secret_config_wo_version = 1"),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)secret_config_wo must be a\s+JSON\s+object`),
				},
				{
					Config:      cfg(plugin + "  secret_config_wo_version = 1"),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)"secret_config_wo" must be\s+specified`),
				},
				{
					Config: cfg(plugin + fmt.Sprintf("  config = jsonencode({ %[1]s = \"a\" })\n"+
						"  secret_config_wo = jsonencode({ %[1]s = \"b\" })\n  secret_config_wo_version = 1", sc.secretKey)),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)config\s+and\s+secret_config_wo\s+both\s+set\s+"` + sc.secretKey + `"`),
				},
				{
					PreConfig: func() {
						if n := srv.Counters()["total"]; n != 0 {
							t.Errorf("the local API counted %d requests before any apply, want none", n)
						}
					},
					// A new config: the plugin's schema is known only from
					// the create's answer.
					Config:      cfg(secretInConfig),
					ExpectError: regexp.MustCompile(`(?s)config\s+sets\s+"` + sc.secretKey + `", which\s+plugin\s+\d+\s+marks\s+secret.*deleted\s+again`),
				},
				{
					Config:      cfg(plainInSecret),
					ExpectError: regexp.MustCompile(`(?s)secret_config_wo\s+sets\s+"` + sc.plain + `", which\s+plugin\s+\d+\s+does\s+not\s+mark\s+secret.*deleted\s+again`),
				},
				{
					// Nothing was left active by the refused creates.
					Config: cfg(plugin),
					Check: resource.ComposeAggregateTestCheckFunc(
						acctest.CaptureID(tc.TypeName+".test", &id),
						func(*terraform.State) error {
							recs, err := acctest.ClientFor(t, host, acctest.KeyFull).ListAll(context.Background(), "1", tc.Kind.Collection)
							if err != nil {
								return err
							}
							for _, r := range recs {
								if !r.Deleted && r.ID != id {
									return fmt.Errorf("config %d was left active", r.ID)
								}
							}
							return nil
						},
					),
				},
				{
					// Known now: refused at plan time.
					Config:      cfg(secretInConfig),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)config\s+sets\s+"` + sc.secretKey + `", which\s+plugin\s+\d+\s+marks\s+secret`),
				},
				{
					Config:      cfg(plainInSecret),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)secret_config_wo\s+sets\s+"` + sc.plain + `", which\s+plugin\s+\d+\s+does\s+not\s+mark\s+secret`),
				},
				{
					// Without a version the plan equals the state (the
					// secrets are write-only): still checked.
					Config:      cfg(plugin + fmt.Sprintf("  secret_config_wo = jsonencode({ %s = \"x\" })\n", sc.plain)),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)secret_config_wo\s+sets\s+"` + sc.plain + `", which\s+plugin\s+\d+\s+does\s+not\s+mark\s+secret`),
				},
			},
		})
	})
}

// checkStored checks the config the local API stores for *id, secrets
// unmasked.
func checkStored(srv *localapi.Server, id *int64, want map[string]any) resource.TestCheckFunc {
	return func(*terraform.State) error {
		raw, err := srv.StoredConfig(1, *id)
		if err != nil {
			return err
		}
		var got map[string]any
		if err := json.Unmarshal(raw, &got); err != nil {
			return fmt.Errorf("stored config %s: %w", raw, err)
		}
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("stored config %s, want %v", raw, want)
		}
		return nil
	}
}

// expectWrites checks the writes (POST and PATCH) among reqs, each as
// "METHOD config=<the form's config field>", against want; bodies are the
// logged write bodies, in order. A write body that holds a secret it is not
// expected to send fails.
func expectWrites(reqs, bodyList, want []string, secrets ...string) error {
	var got []string
	for _, r := range reqs {
		if m, _, _ := strings.Cut(r, " "); m == http.MethodPost || m == http.MethodPatch {
			got = append(got, m)
		}
	}
	if len(got) != len(want) || len(bodyList) != len(want) {
		return fmt.Errorf("writes %q (%d bodies), want %q", got, len(bodyList), want)
	}
	for i, w := range want {
		method, wantConfig, withConfig := strings.Cut(w, " config=")
		if got[i] != method {
			return fmt.Errorf("write %d is %s, want %s", i, got[i], method)
		}
		cfg, ok := formField(bodyList[i], "config")
		if ok != withConfig {
			return fmt.Errorf("write %d has a config field %v, want %v: %s", i, ok, withConfig, bodyList[i])
		}
		if cfg != wantConfig {
			return fmt.Errorf("write %d sends config %s, want %s", i, cfg, wantConfig)
		}
		for _, s := range secrets {
			if strings.Contains(bodyList[i], s) && !strings.Contains(wantConfig, s) {
				return fmt.Errorf("write %d sends the secret %q unasked", i, s)
			}
		}
	}
	return nil
}

// formField returns a field of a multipart body.
func formField(body, name string) (string, bool) {
	marker := `Content-Disposition: form-data; name="` + name + `"` + "\r\n\r\n"
	i := strings.Index(body, marker)
	if i < 0 {
		return "", false
	}
	v := body[i+len(marker):]
	j := strings.Index(v, "\r\n--")
	if j < 0 {
		return "", false
	}
	return v[:j], true
}

// noSecretCheck fails when a secret appears in a plan, in the state Terraform
// shows, or in a state file under dir.
type noSecretCheck struct {
	dir     string
	id      *int64
	secrets []string
}

func noSecretIn(dir string, id *int64, secrets ...string) noSecretCheck {
	return noSecretCheck{dir: dir, id: id, secrets: secrets}
}

func (c noSecretCheck) find(what string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(b) < 10 {
		return fmt.Errorf("%s is empty: %s", what, b)
	}
	for _, s := range c.secrets {
		if strings.Contains(string(b), s) {
			return fmt.Errorf("%s holds the secret %q", what, s)
		}
	}
	return nil
}

// CheckPlan implements plancheck.PlanCheck.
func (c noSecretCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = c.find("the plan", req.Plan)
}

// CheckState implements statecheck.StateCheck: the state as `terraform
// show -json` shows it.
func (c noSecretCheck) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = c.find("the state", req.State)
}

// checkFiles reads every state file under the directory, of which at least
// one must hold the config *id.
func (c noSecretCheck) checkFiles() resource.TestCheckFunc {
	return func(*terraform.State) error {
		var files []string
		err := filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".tfstate") {
				files = append(files, p)
			}
			return err
		})
		found := false
		for _, p := range files {
			if err != nil {
				break
			}
			var b []byte
			if b, err = os.ReadFile(p); err != nil {
				break
			}
			for _, s := range c.secrets {
				if strings.Contains(string(b), s) {
					err = fmt.Errorf("state file %s holds the secret %q", p, s)
				}
			}
			found = found || strings.Contains(string(b), fmt.Sprintf(`"id": %d,`, *c.id))
		}
		if err == nil && !found {
			err = fmt.Errorf("no state file under %s holds config %d", c.dir, *c.id)
		}
		return err
	}
}
