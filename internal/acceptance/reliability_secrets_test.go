package acceptance

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

func randomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// TestAccReliability_secretsNeverWritten: with TF_LOG=trace, neither the
// API key nor a secret plugin setting appears in Terraform's log (the
// provider's lines included), the state, the plan, their JSON renderings
// or the output, through a create, an update, a failing create and a
// destroy; whether the key comes from POSTHOG_API_KEY or from an ephemeral
// variable in the provider block.
func TestAccReliability_secretsNeverWritten(t *testing.T) {
	t.Parallel()
	for _, from := range []string{"environment", "variable"} {
		t.Run(from, func(t *testing.T) {
			t.Parallel()
			key := "phx_secret_" + randomHex(t, 12)
			secret := "geo-secret-" + randomHex(t, 12)
			host, _ := acctest.IsolatedAPIWith(t, localapi.Options{Keys: []localapi.APIKey{
				{Key: key, Scopes: []string{"plugin:read", "plugin:write"}, Projects: []int64{1}},
			}}, nil)

			env := map[string]string{}
			provider := fmt.Sprintf("provider \"pipeline\" {\n  host = %q\n  project_id = \"1\"\n", host)
			if from == "environment" {
				env["POSTHOG_API_KEY"] = key
			} else {
				env["TF_VAR_api_key"] = key
				// Ephemeral (Terraform 1.10+): a sensitive variable alone
				// is written to plan files and their JSON by Terraform.
				provider = "variable \"api_key\" {\n  type = string\n  sensitive = true\n  ephemeral = true\n}\n\n" +
					provider + "  api_key = var.api_key\n"
			}
			provider += "}\n"
			resource := func(name string, plugin int) string {
				return fmt.Sprintf(`
resource "pipeline_transformation_config" "geoip" {
  plugin                   = %d
  name                     = %q
  config                   = jsonencode({ locale = "en" })
  secret_config_wo         = jsonencode({ api_key = %q })
  secret_config_wo_version = 1
}
`, plugin, name, secret)
			}
			tf := acctest.NewTerraform(t, provider+resource("first", 1), env)
			logDir := t.TempDir()
			var outputs []string
			run := func(step string, wantErr bool, args ...string) {
				t.Helper()
				out, err := tf.RunEnv([]string{"TF_LOG=trace", "TF_LOG_PATH=" + filepath.Join(logDir, step+".log")}, args...)
				if (err != nil) != wantErr {
					t.Fatalf("%s: error %v, want error %v:\n%s", step, err, wantErr, out)
				}
				outputs = append(outputs, out)
			}

			run("apply", false, "apply", "-auto-approve", "-no-color")
			tf.WriteConfig(provider + resource("second", 1))
			run("plan", false, "plan", "-out=update.tfplan", "-no-color")
			run("show-plan", false, "show", "-json", "update.tfplan")
			run("update", false, "apply", "-no-color", "update.tfplan")
			run("show-state", false, "show", "-json")
			tf.WriteConfig(provider + resource("second", 1) + strings.ReplaceAll(resource("bad", 999999), `"geoip"`, `"bad"`))
			run("failing-create", true, "apply", "-auto-approve", "-no-color")
			run("destroy", false, "destroy", "-auto-approve", "-no-color")

			// What Terraform wrote: logs, state and its backup, the plan file.
			files := map[string][]byte{}
			for _, dir := range []string{logDir, tf.Dir} {
				_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
					if err != nil || d.IsDir() || strings.Contains(p, string(filepath.Separator)+"providers"+string(filepath.Separator)) {
						return err
					}
					if filepath.Base(p) == "main.tf" {
						return nil // the configuration itself holds the secret setting
					}
					b, err := os.ReadFile(p) //nolint:gosec // G122: the test's own temporary directories
					if err == nil {
						files[p] = b
					}
					return err
				})
			}
			for i, out := range outputs {
				files[fmt.Sprintf("output of command %d", i+1)] = []byte(out)
			}
			providerLines := 0
			for name, b := range files {
				for what, s := range map[string]string{"the API key": key, "the secret setting": secret} {
					if i := strings.Index(string(b), s); i >= 0 {
						t.Errorf("%s appears in %s: …%s…", what, name, excerpt(b, i))
					}
				}
				if strings.HasSuffix(name, ".log") {
					providerLines += strings.Count(string(b), "API request")
				}
			}
			// The logs did capture the provider's own lines.
			if providerLines == 0 || len(files) < 8 {
				t.Errorf("%d provider request lines in %d files: the logs were not captured", providerLines, len(files))
			}
		})
	}
}

func excerpt(b []byte, i int) string {
	lo, hi := max(0, i-80), min(len(b), i+80)
	return strings.ReplaceAll(string(b[lo:hi]), "\n", " ")
}
