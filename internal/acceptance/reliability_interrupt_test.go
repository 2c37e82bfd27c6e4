//go:build unix

package acceptance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// interruptConfigs are configs with settings of their own and a group of
// identical ones.
const interruptConfigs = `
resource "pipeline_transformation_config" "named" {
  count  = 16
  plugin = 1 + count.index % 2
  name   = "named ${count.index}"
  order  = count.index
}

resource "pipeline_import_app_config" "same" {
  count  = 8
  plugin = 3
}
`

const interruptCount = 24

// TestAccReliability_interruptedApply: an apply interrupted part-way, by
// Ctrl-C (SIGINT) or killed (SIGKILL, of Terraform alone or with its
// provider), is followed by an apply that converges: the state and the API
// then hold the same configs, one each, and the next plan is empty. After
// SIGINT nothing is lost even before the second apply: creates under way
// finish and reach the state. After SIGKILL the configs whose answers
// were cut off are adopted from the create journal, with a warning.
func TestAccReliability_interruptedApply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		stop func(pid int) error
		// clean: nothing may be missing from the state after the stop.
		clean bool
	}{
		{"SIGINT", func(pid int) error { return syscall.Kill(pid, syscall.SIGINT) }, true},
		{"SIGKILL terraform", func(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }, false},
		{"SIGKILL terraform and provider", func(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Writes are applied at once and answered 400ms later, so that
			// several are under way whenever the stop comes.
			host, local := acctest.IsolatedAPI(t, slowAnswers(400*time.Millisecond))
			provider := fmt.Sprintf("provider \"pipeline\" {\n  host = %q\n  api_key = %q\n  project_id = \"1\"\n  requests_per_minute = 0\n}\n",
				host, acctest.KeyWrite)
			tf := acctest.NewTerraform(t, provider+interruptConfigs, nil)

			cmd := tf.Command(context.Background(), nil, "apply", "-auto-approve", "-no-color")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			// A process group of its own: the provider processes Terraform
			// starts are in it, and are ended with it.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := cmd.Process.Pid
			t.Cleanup(func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()

			// Stop it once the first ten creates (Terraform's parallelism)
			// were answered and more are under way.
			deadline := time.Now().Add(60 * time.Second)
			for local.Counters()["create"] < 14 {
				if time.Now().After(deadline) {
					t.Fatalf("no creates within a minute:\n%s", out.String())
				}
				time.Sleep(5 * time.Millisecond)
			}
			if err := tc.stop(pid); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				if err == nil {
					t.Fatalf("the interrupted apply succeeded:\n%s", out.String())
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("terraform still runs a minute after the stop:\n%s", out.String())
			}
			waitGroupGone(t, pid)

			state := tf.StateIDs()
			api := activeIDs(t, host)
			t.Logf("after the stop: %d configs in the state, %d active on the API", len(state), len(api))
			if len(state) == interruptCount {
				t.Fatalf("the apply completed before the stop; the test proves nothing:\n%s", out.String())
			}
			if tc.clean {
				if err := acctest.StateMatchesAPI(acctest.ClientFor(t, host, localapi.KeyFull), state, len(state)); err != nil {
					t.Errorf("after a clean stop: %v", err)
				}
			}
			orphans := len(api) - len(state)

			second, err := tf.Run("apply", "-auto-approve", "-no-color")
			if err != nil {
				t.Fatalf("the second apply failed: %v\n%s", err, second)
			}
			if err := acctest.StateMatchesAPI(acctest.ClientFor(t, host, localapi.KeyFull), tf.StateIDs(), interruptCount); err != nil {
				t.Errorf("after the second apply: %v", err)
			}
			if adopted := strings.Count(second, "Warning: Adopted "); adopted != orphans {
				t.Errorf("the second apply adopted %d configs, want the %d orphans:\n%s", adopted, orphans, second)
			}
			tf.EmptyPlan("after the second apply")
		})
	}
}

// waitGroupGone waits until no process of the process group pgid runs (the
// provider processes end with Terraform).
func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := syscall.Kill(-pgid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of the stopped apply still run 30s later (kill -0 -%d: %v)", pgid, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
