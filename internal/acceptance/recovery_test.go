package acceptance

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// The create journal adopts only what a killed run of the same working
// directory and workspace created: never what another state holds (issue
// 24, cases 1 and 2). Killed runs are in reliability_interrupt_test.go.

// recoveryProvider is a provider block for host with the write key.
func recoveryProvider(host string) string {
	return fmt.Sprintf(`provider "pipeline" {
  host       = %q
  api_key    = %q
  project_id = "1"
}
`, host, acctest.KeyWrite)
}

// perWorkspaceConfig is a transformation config whose secret is the
// workspace's name.
const perWorkspaceConfig = `
resource "pipeline_transformation_config" "geoip" {
  plugin                   = 1
  name                     = "GeoIP"
  config                   = jsonencode({ locale = "en" })
  secret_config_wo         = jsonencode({ api_key = terraform.workspace })
  secret_config_wo_version = 1
}
`

// storedSecret is the api_key config id stores on the local API.
func storedSecret(t *testing.T, local *localapi.Server, id int64) string {
	t.Helper()
	raw, err := local.StoredConfig(1, id)
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal(raw, &settings); err != nil {
		t.Fatal(err)
	}
	s, _ := settings["api_key"].(string)
	return s
}

func mustApply(t *testing.T, tf *acctest.Terraform, args ...string) string {
	t.Helper()
	out, err := tf.Run(append([]string{"apply", "-auto-approve", "-no-color"}, args...)...)
	if err != nil {
		t.Fatalf("terraform apply %v: %v\n%s", args, err, out)
	}
	if strings.Contains(out, "Adopted") {
		t.Errorf("terraform apply %v adopted a config:\n%s", args, out)
	}
	return out
}

func mustRun(t *testing.T, tf *acctest.Terraform, args ...string) {
	t.Helper()
	if out, err := tf.Run(args...); err != nil {
		t.Fatalf("terraform %v: %v\n%s", args, err, out)
	}
}

// onlyID returns the one config id of a state.
func onlyID(t *testing.T, state map[string]int64) int64 {
	t.Helper()
	if len(state) != 1 {
		t.Fatalf("the state holds %v, want one config", state)
	}
	for _, id := range state {
		return id
	}
	return 0
}

// TestAccRecovery_workspacesShareProject: two workspaces of one working
// directory apply the same configuration to one project: each creates a
// config of its own with its own secret, and destroying one leaves the
// other's. So do two working directories that share a data directory.
func TestAccRecovery_workspacesShareProject(t *testing.T) {
	t.Parallel()
	t.Run("workspaces", func(t *testing.T) {
		t.Parallel()
		host, local := acctest.IsolatedAPI(t, nil)
		tf := acctest.NewTerraform(t, recoveryProvider(host)+perWorkspaceConfig, nil)
		ids := map[string]int64{}
		for _, ws := range []string{"blue", "green"} {
			mustRun(t, tf, "workspace", "new", "-no-color", ws)
			mustApply(t, tf)
			ids[ws] = onlyID(t, tf.StateIDsOf(filepath.Join("terraform.tfstate.d", ws, "terraform.tfstate")))
		}
		checkOwnConfigs(t, host, local, ids)
		mustRun(t, tf, "destroy", "-auto-approve", "-no-color")
		if active := activeIDs(t, host); active[ids["blue"]] != 1 || active[ids["green"]] != 0 {
			t.Errorf("after green's destroy the service has %v, want blue's %d alone", active, ids["blue"])
		}
	})
	t.Run("working directories sharing a data directory", func(t *testing.T) {
		t.Parallel()
		host, local := acctest.IsolatedAPI(t, nil)
		shared := map[string]string{"TF_DATA_DIR": filepath.Join(t.TempDir(), "data")}
		ids := map[string]int64{}
		for _, ws := range []string{"blue", "green"} {
			tf := acctest.NewTerraform(t, recoveryProvider(host)+strings.ReplaceAll(perWorkspaceConfig, "terraform.workspace", fmt.Sprintf("%q", ws)), shared)
			mustApply(t, tf)
			ids[ws] = onlyID(t, tf.StateIDs())
		}
		checkOwnConfigs(t, host, local, ids)
	})
}

// checkOwnConfigs checks that each of ids (by workspace) is a config of its
// own, active, holding the workspace's secret.
func checkOwnConfigs(t *testing.T, host string, local *localapi.Server, ids map[string]int64) {
	t.Helper()
	if ids["blue"] == ids["green"] {
		t.Fatalf("both states hold config %d", ids["blue"])
	}
	active := activeIDs(t, host)
	if len(active) != 2 {
		t.Errorf("the service has %v, want the two configs", active)
	}
	for ws, id := range ids {
		if got := storedSecret(t, local, id); got != ws {
			t.Errorf("config %d of %s holds the secret %q, want %q", id, ws, got, ws)
		}
	}
}

// TestAccRecovery_targetedCreate: a config identical to one applied
// before, created by a targeted apply, is a config of its own; removing it
// later leaves the first.
func TestAccRecovery_targetedCreate(t *testing.T) {
	t.Parallel()
	host, _ := acctest.IsolatedAPI(t, nil)
	same := func(names ...string) string {
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "\nresource \"pipeline_transformation_config\" %q {\n  plugin = 2\n  enabled = true\n}\n", n)
		}
		return b.String()
	}
	tf := acctest.NewTerraform(t, recoveryProvider(host)+same("a"), nil)
	mustApply(t, tf)
	tf.WriteConfig(recoveryProvider(host) + same("a", "b"))
	mustApply(t, tf, "-target=pipeline_transformation_config.b")
	state := tf.StateIDs()
	a, b := state["pipeline_transformation_config.a"], state["pipeline_transformation_config.b"]
	if a == 0 || b == 0 || a == b {
		t.Fatalf("the state holds %v, want two configs", state)
	}
	tf.WriteConfig(recoveryProvider(host) + same("a"))
	mustApply(t, tf)
	if active := activeIDs(t, host); len(active) != 1 || active[a] != 1 {
		t.Errorf("after b's removal the service has %v, want a's %d alone", active, a)
	}
	tf.EmptyPlan("after b's removal")
}
