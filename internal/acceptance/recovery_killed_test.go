//go:build unix

package acceptance

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// Applies killed at a chosen create, then what the user does next (issue
// 34): the create journal adopts only a config that no state can hold (its
// answer came after Terraform was killed), in the working directory and
// workspace that made it, however that directory is reached.

// killAtCreate starts an apply in tf (env added), kills Terraform alone
// once the service has taken creates creates, and waits until its
// providers have ended too. Writes are answered 400 ms after the service
// acts on them (slowAnswers), so that a create taken at the kill is
// answered to a provider whose Terraform is gone.
func killAtCreate(t *testing.T, tf *acctest.Terraform, local *localapi.Server, creates int64, env ...string) {
	t.Helper()
	var out bytes.Buffer
	cmd := tf.Command(context.Background(), env, "apply", "-auto-approve", "-no-color")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	run := &interruptedApply{group: cmd.Process.Pid, exited: make(chan error, 1)}
	t.Cleanup(func() { _ = syscall.Kill(-run.group, syscall.SIGKILL) })
	go func() { run.exited <- cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for local.Counters()["create"] < creates {
		if time.Now().After(deadline) {
			t.Fatalf("not %d creates within a minute:\n%s", creates, out.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := syscall.Kill(run.group, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	run.waitTerraform(t, &out)
	run.waitProviders(t)
}

// applyOut runs terraform apply in tf (env added) and returns its output.
func applyOut(t *testing.T, tf *acctest.Terraform, env []string, args ...string) string {
	t.Helper()
	out, err := tf.RunEnv(env, append([]string{"apply", "-auto-approve", "-no-color"}, args...)...)
	if err != nil {
		t.Fatalf("terraform apply %v: %v\n%s", args, err, out)
	}
	return out
}

var (
	adoptedSummary  = regexp.MustCompile(`(?m)^Warning: Adopted [a-z_ ]+ config (\d+), created by a killed run$`)
	leftoverSummary = regexp.MustCompile(`(?m)^Warning: [A-Za-z_ ]+ config (\d+) may be left over from a killed run$`)
)

// warnedIDs returns the config ids that warnings of out matching re name,
// read from their summary lines.
func warnedIDs(out string, re *regexp.Regexp) map[int64]bool {
	ids := map[int64]bool{}
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		id, err := strconv.ParseInt(m[1], 10, 64)
		if err == nil {
			ids[id] = true
		}
	}
	return ids
}

// onlyState fails unless the service lists exactly the configs of states,
// each held once, and leftovers (named in warnings).
func onlyState(t *testing.T, host string, leftovers map[int64]bool, states ...map[string]int64) {
	t.Helper()
	held := map[int64]string{}
	for i, state := range states {
		for addr, id := range state {
			where := fmt.Sprintf("state %d's %s", i+1, addr)
			if other, ok := held[id]; ok {
				t.Errorf("%s and %s both hold config %d", other, where, id)
			}
			held[id] = where
		}
	}
	active := activeIDs(t, host)
	for id := range active {
		if _, ok := held[id]; !ok && !leftovers[id] {
			t.Errorf("config %d is active, but no state holds it (the service has %v, the states %v)", id, active, held)
		}
	}
	for id, where := range held {
		if active[id] != 1 {
			t.Errorf("%s holds config %d, which the service does not list", where, id)
		}
	}
}

// handedConfigs are a config that the provider gives Terraform before the
// kill (Terraform saves it then, OpenTofu only at the end of the apply),
// and one whose create the kill interrupts (the second waits for the
// first).
func handedConfigs(host string, a string) string {
	return recoveryProvider(host) + a + `
resource "pipeline_import_app_config" "b" {
  plugin     = 3
  depends_on = [pipeline_transformation_config.a]
}
`
}

const handedA = `
resource "pipeline_transformation_config" "a" {
  plugin = 1
  name   = "GeoIP"
}
`

// TestAccRecovery_handedConfigNeverAdopted (issue 34, case 1): a config
// that Terraform saved before the kill, which the user then takes out of
// the state (terraform state rm, or a removed block) and imports into
// another working directory's, is never adopted by an identical create in
// the first directory: that creates a config of its own, and a warning
// names the other only as possibly left over. The kill's own orphan is
// adopted. (OpenTofu saves no state before the kill: the config is in no
// state already, and the rest is the same.)
func TestAccRecovery_handedConfigNeverAdopted(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"state rm", "removed block"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			host, local := acctest.IsolatedAPI(t, slowAnswers())
			tf := acctest.NewTerraform(t, handedConfigs(host, handedA), nil)
			killAtCreate(t, tf, local, 2)
			x := onlyActive(t, host, client.Transformations)
			switch saved := tf.StateIDs()["pipeline_transformation_config.a"]; {
			case saved == 0:
				t.Logf("%s saved no state before the kill: config %d is in no state already", acctest.TerraformBinary(), x)
			case saved != x:
				t.Fatalf("the state holds config %d for a, the service %d", saved, x)
			case how == "state rm":
				mustRun(t, tf, "state", "rm", "-no-color", "pipeline_transformation_config.a")
			default:
				tf.WriteConfig(recoveryProvider(host) + `
removed {
  from = pipeline_transformation_config.a
  lifecycle {
    destroy = false
  }
}

resource "pipeline_import_app_config" "b" {
  plugin = 3
}
`)
				applyOut(t, tf, nil)
				tf.WriteConfig(handedConfigs(host, handedA))
			}
			other := acctest.NewTerraform(t, recoveryProvider(host)+handedA+
				fmt.Sprintf("\nimport {\n  to = pipeline_transformation_config.a\n  id = \"1/%d\"\n}\n", x), nil)
			applyOut(t, other, nil)

			out := applyOut(t, tf, nil)
			a := tf.StateIDs()["pipeline_transformation_config.a"]
			if a == x || warnedIDs(out, adoptedSummary)[x] {
				t.Fatalf("config %d, which the other directory's state holds, was adopted:\n%s", x, out)
			}
			if !warnedIDs(out, leftoverSummary)[x] {
				t.Errorf("no warning names config %d as possibly left over:\n%s", x, out)
			}
			onlyState(t, host, nil, tf.StateIDs(), other.StateIDs())
		})
	}
}

// onlyActive returns the one active config of coll in project 1.
func onlyActive(t *testing.T, host string, coll client.Collection) int64 {
	t.Helper()
	recs, err := acctest.ClientFor(t, host, localapi.KeyFull).ListAll(context.Background(), "1", coll)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("%s holds %d configs, want the one the killed run made", coll, len(recs))
	}
	return recs[0].ID
}

// TestAccRecovery_targetedAfterKill: a -target apply right after a kill,
// of a new resource identical to one Terraform saved before the kill,
// never adopts the saved one (the plan reads only the target); it creates
// a config of its own, and the kill's orphan is adopted by the next
// apply. (OpenTofu saves no state before the kill: the config is named as
// possibly left over.)
func TestAccRecovery_targetedAfterKill(t *testing.T) {
	t.Parallel()
	host, local := acctest.IsolatedAPI(t, slowAnswers())
	tf := acctest.NewTerraform(t, handedConfigs(host, handedA), nil)
	killAtCreate(t, tf, local, 2)
	x := onlyActive(t, host, client.Transformations)
	tf.WriteConfig(handedConfigs(host, handedA+strings.ReplaceAll(handedA, `"a"`, `"c"`)))
	out := applyOut(t, tf, nil, "-target=pipeline_transformation_config.c")
	if c := tf.StateIDs()["pipeline_transformation_config.c"]; c == x || warnedIDs(out, adoptedSummary)[x] {
		t.Fatalf("c took config %d, which Terraform got before the kill:\n%s", x, out)
	}
	leftovers := warnedIDs(out, leftoverSummary)
	out = applyOut(t, tf, nil)
	if n := len(warnedIDs(out, adoptedSummary)); n != 1 {
		t.Errorf("the full apply adopted %d configs, want b's orphan:\n%s", n, out)
	}
	onlyState(t, host, leftovers, tf.StateIDs())
	tf.EmptyPlan("after the full apply")
}

// sameConfigs are identical configs whose creates all go at once, so that
// a kill at the last leaves every one an orphan.
const sameConfigs = `
resource "pipeline_import_app_config" "same" {
  count  = 6
  plugin = 3
}
`

// TestAccRecovery_otherPathToDirectory (issue 34, case 2): an apply killed
// while run through a symlink is recovered by the next run through the
// real path, and one killed in a directory by a run in a copy of it made
// with its .terraform: every orphan is adopted, none is made twice.
func TestAccRecovery_otherPathToDirectory(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"symlink, then real path", "copy with .terraform"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			host, local := acctest.IsolatedAPI(t, slowAnswers())
			tf := acctest.NewTerraform(t, recoveryProvider(host)+sameConfigs, nil)
			next := tf
			if how == "symlink, then real path" {
				link := filepath.Join(t.TempDir(), "link")
				if err := os.Symlink(tf.Dir, link); err != nil {
					t.Fatal(err)
				}
				viaLink := *tf
				viaLink.Dir = link
				killAtCreate(t, &viaLink, local, 6, "PWD="+link) // a shell in the link sets PWD so
			} else {
				killAtCreate(t, tf, local, 6)
				cp := filepath.Join(t.TempDir(), "copy")
				// cp keeps the symlinks that terraform init made to the mirror.
				if out, err := exec.CommandContext(context.Background(), "cp", "-a", tf.Dir, cp).CombinedOutput(); err != nil { //nolint:gosec // G204: the test's own paths
					t.Fatalf("cp: %v\n%s", err, out)
				}
				inCopy := *tf
				inCopy.Dir = cp
				next = &inCopy
			}
			orphans := activeIDs(t, host)
			if len(orphans) == 0 || len(next.StateIDs()) != 0 {
				t.Fatalf("the kill left %v on the service and %v in the state: the test proves nothing", orphans, next.StateIDs())
			}
			out := applyOut(t, next, []string{"PWD=" + next.Dir})
			if got := warnedIDs(out, adoptedSummary); !maps.Equal(got, boolSet(orphans)) {
				t.Errorf("adopted %v, want the kill's orphans %v:\n%s", slices.Sorted(maps.Keys(got)), orphans, out)
			}
			onlyState(t, host, nil, next.StateIDs())
		})
	}
}

func boolSet(ids map[int64]int) map[int64]bool {
	out := map[int64]bool{}
	for id := range ids {
		out[id] = true
	}
	return out
}

// TestAccRecovery_killedRunPerWorkspace: a killed run's orphan is adopted
// only in the working directory and workspace that made it. Another
// workspace of the directory, and another working directory sharing its
// data directory, applying the same configuration make configs of their
// own, with their own secrets; then the killed workspace adopts its orphan.
func TestAccRecovery_killedRunPerWorkspace(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"workspaces", "working directories sharing a data directory"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			host, local := acctest.IsolatedAPI(t, slowAnswers())
			var killed, other *acctest.Terraform
			if how == "workspaces" {
				killed = acctest.NewTerraform(t, recoveryProvider(host)+perWorkspaceConfig, nil)
				mustRun(t, killed, "workspace", "new", "-no-color", "blue")
				o := *killed
				other = &o
			} else {
				shared := map[string]string{"TF_DATA_DIR": filepath.Join(t.TempDir(), "data")}
				config := func(ws string) string {
					return recoveryProvider(host) + strings.ReplaceAll(perWorkspaceConfig, "terraform.workspace", strconv.Quote(ws))
				}
				killed = acctest.NewTerraform(t, config("blue"), shared)
				other = acctest.NewTerraform(t, config("green"), shared)
			}
			killAtCreate(t, killed, local, 1)
			orphans := activeIDs(t, host)
			if len(orphans) != 1 {
				t.Fatalf("the kill left %v: the test proves nothing", orphans)
			}
			if how == "workspaces" {
				mustRun(t, other, "workspace", "new", "-no-color", "green")
			}
			mustApply(t, other) // fails on an adoption
			if how == "workspaces" {
				mustRun(t, killed, "workspace", "select", "-no-color", "blue")
			}
			out := applyOut(t, killed, nil)
			if got := warnedIDs(out, adoptedSummary); !maps.Equal(got, boolSet(orphans)) {
				t.Errorf("blue adopted %v, want its orphan %v:\n%s", got, orphans, out)
			}
			ids := map[string]int64{}
			if how == "workspaces" {
				ids["blue"] = onlyID(t, killed.StateIDsOf(filepath.Join("terraform.tfstate.d", "blue", "terraform.tfstate")))
				ids["green"] = onlyID(t, killed.StateIDsOf(filepath.Join("terraform.tfstate.d", "green", "terraform.tfstate")))
			} else {
				ids["blue"], ids["green"] = onlyID(t, killed.StateIDs()), onlyID(t, other.StateIDs())
			}
			checkOwnConfigs(t, host, local, ids)
		})
	}
}
