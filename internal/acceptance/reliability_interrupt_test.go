//go:build unix

package acceptance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
// provider), is followed by an apply that converges: the state holds every
// config, once, and the next plan is empty. After SIGINT nothing is lost
// even before the second apply: creates under way finish and reach the
// state. After a SIGKILL of Terraform alone, every config whose answer
// came once Terraform was gone is adopted from the create journal, with a
// warning, also when the second apply starts at once (the killed run's
// provider still finishing) and under a parent that never reaps the
// provider. A config handed to Terraform that it did not save may be in a
// state for all the provider knows: it is made again, and a warning names
// the one left over. When the provider dies too, a create whose answer
// never came proves nothing: the second apply creates anew and names the
// configs that may be leftovers. Every config the service has is in the
// state or named so.
func TestAccReliability_interruptedApply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// group: the signal goes to Terraform's process group (the
		// provider too), else to Terraform alone.
		sig   syscall.Signal
		group bool
		// wait: the second apply waits until the first's processes are
		// gone (or zombies, under noReap).
		wait, noReap bool
	}{
		{name: "SIGINT", sig: syscall.SIGINT, wait: true},
		{name: "SIGKILL terraform", sig: syscall.SIGKILL, wait: true},
		{name: "SIGKILL terraform, applied again at once", sig: syscall.SIGKILL},
		{name: "SIGKILL terraform under a parent that never reaps", sig: syscall.SIGKILL, wait: true, noReap: true},
		{name: "SIGKILL terraform and provider", sig: syscall.SIGKILL, group: true, wait: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.noReap && !noReapSupported {
				t.Skip("subreapers are Linux's")
			}
			// Writes are applied at once and answered 400ms later, so that
			// several are under way whenever the stop comes.
			answers := &answerLog{}
			host, local := acctest.IsolatedAPI(t, func(h http.Handler) http.Handler {
				return answers.record(slowAnswers()(h))
			})
			provider := fmt.Sprintf("provider \"pipeline\" {\n  host = %q\n  api_key = %q\n  project_id = \"1\"\n  requests_per_minute = 0\n}\n",
				host, acctest.KeyWrite)
			tf := acctest.NewTerraform(t, provider+interruptConfigs, nil)

			var out bytes.Buffer
			run := startApply(t, tf, &out, tc.noReap)
			// Stop it once the first ten creates (Terraform's parallelism)
			// were answered and more are under way.
			deadline := time.Now().Add(60 * time.Second)
			for local.Counters()["create"] < 14 {
				if time.Now().After(deadline) {
					t.Fatalf("no creates within a minute:\n%s", out.String())
				}
				time.Sleep(5 * time.Millisecond)
			}
			target := run.terraform()
			if tc.group {
				target = -run.group
			}
			if err := syscall.Kill(target, tc.sig); err != nil {
				t.Fatal(err)
			}
			run.waitTerraform(t, &out)
			gone := time.Now()
			if tc.wait {
				run.waitProviders(t)
			}

			state := tf.StateIDs()
			if len(state) == interruptCount {
				t.Fatalf("the apply completed before the stop; the test proves nothing:\n%s", out.String())
			}
			if tc.sig == syscall.SIGINT {
				if err := acctest.StateMatchesAPI(acctest.ClientFor(t, host, localapi.KeyFull), state, len(state)); err != nil {
					t.Errorf("after a clean stop: %v", err)
				}
			}

			second, err := tf.Run("apply", "-auto-approve", "-no-color")
			if err != nil {
				t.Fatalf("the second apply failed: %v\n%s", err, second)
			}
			final := distinct(tf.StateIDs())
			if len(final) != interruptCount {
				t.Errorf("the state holds %d distinct configs, want %d: %v", len(final), interruptCount, final)
			}
			adopted, named := warnedIDs(second, adoptedSummary), warnedIDs(second, leftoverSummary)
			leftovers := 0
			for id := range activeIDs(t, host) {
				if !final[id] {
					leftovers++
					if !named[id] {
						t.Errorf("config %d is active but in no state, and no warning names it", id)
					}
				}
			}
			for id := range adopted {
				if !final[id] || distinct(state)[id] {
					t.Errorf("config %d was adopted, but it is not in the state, or was in it before", id)
				}
			}
			// Answered once Terraform was gone: no state can hold it, and a
			// provider that lived on journaled it, so it is adopted.
			late := answers.answeredAfter(gone)
			if !tc.group && tc.sig == syscall.SIGKILL {
				if len(late) == 0 {
					t.Errorf("no create was answered after the kill: the test proves nothing")
				}
				for _, id := range late {
					if !adopted[id] {
						t.Errorf("config %d was answered after Terraform was killed, but not adopted:\n%s", id, second)
					}
				}
			}
			if tc.sig == syscall.SIGINT && (len(adopted) != 0 || leftovers != 0) {
				t.Errorf("after a clean stop the second apply adopted %v and left %d configs:\n%s", adopted, leftovers, second)
			}
			t.Logf("%s: stopped with %d configs in the state, %d answered after Terraform was gone; the second apply "+
				"adopted %d, made again and warned of %d", tc.name, len(state), len(late), len(adopted), leftovers)
			tf.EmptyPlan("after the second apply")
		})
	}
}

// answerLog records when the answers to creates were written, with the
// config each named.
type answerLog struct {
	mu      sync.Mutex
	answers []writtenAnswer
}

type writtenAnswer struct {
	id                int64
	received, written time.Time
}

// record wraps h, noting each create's answer as it is written.
func (l *answerLog) record(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		received := time.Now()
		tee := &teeWriter{ResponseWriter: w, copy: httptest.NewRecorder()}
		h.ServeHTTP(tee, r)
		var body struct {
			ID int64 `json:"id"`
		}
		if r.Method == http.MethodPost && tee.copy.Code == http.StatusCreated && json.Unmarshal(tee.copy.Body.Bytes(), &body) == nil {
			l.mu.Lock()
			l.answers = append(l.answers, writtenAnswer{body.ID, received, tee.at})
			l.mu.Unlock()
		}
	})
}

// answeredAfter returns the configs whose create came before t and whose
// answer was written after it.
func (l *answerLog) answeredAfter(t time.Time) []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []int64
	for _, a := range l.answers {
		if a.received.Before(t) && a.written.After(t) {
			ids = append(ids, a.id)
		}
	}
	return ids
}

// teeWriter writes an answer and keeps a copy of it, and when it began.
type teeWriter struct {
	http.ResponseWriter
	copy *httptest.ResponseRecorder
	at   time.Time
}

func (w *teeWriter) WriteHeader(code int) {
	w.at = time.Now()
	w.copy.WriteHeader(code)
	w.ResponseWriter.WriteHeader(code)
}

func (w *teeWriter) Write(b []byte) (int, error) {
	_, _ = w.copy.Write(b)
	return w.ResponseWriter.Write(b)
}

// distinct returns the set of ids of a state.
func distinct(state map[string]int64) map[int64]bool {
	set := map[int64]bool{}
	for _, id := range state {
		set[id] = true
	}
	return set
}

// interruptedApply is a terraform apply started in a process group of its
// own (its providers are in it), directly or under a parent that never
// reaps.
type interruptedApply struct {
	group   int
	pidFile string
	exited  chan error
}

func startApply(t *testing.T, tf *acctest.Terraform, out *bytes.Buffer, noReap bool) *interruptedApply {
	t.Helper()
	cmd := tf.Command(context.Background(), nil, "apply", "-auto-approve", "-no-color")
	run := &interruptedApply{exited: make(chan error, 1)}
	if noReap {
		argv, _ := json.Marshal(cmd.Args)
		run.pidFile = filepath.Join(t.TempDir(), "terraform.pid")
		wrapper := exec.CommandContext(context.Background(), os.Args[0]) //nolint:gosec // G204: this test binary
		wrapper.Dir = cmd.Dir
		wrapper.Env = append(cmd.Env, noReapEnv+"="+string(argv), noReapPIDEnv+"="+run.pidFile)
		cmd = wrapper
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	run.group = cmd.Process.Pid
	t.Cleanup(func() { _ = syscall.Kill(-run.group, syscall.SIGKILL) })
	go func() { run.exited <- cmd.Wait() }()
	return run
}

// terraform returns Terraform's pid.
func (r *interruptedApply) terraform() int {
	if r.pidFile == "" {
		return r.group
	}
	for {
		if b, err := os.ReadFile(r.pidFile); err == nil && len(b) > 0 {
			pid, _ := strconv.Atoi(string(b))
			return pid
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitTerraform waits until Terraform has exited.
func (r *interruptedApply) waitTerraform(t *testing.T, out *bytes.Buffer) {
	t.Helper()
	if r.pidFile != "" {
		pid := r.terraform()
		deadline := time.Now().Add(60 * time.Second)
		for !isZombieOrGone(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("terraform still runs a minute after the stop:\n%s", out.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		return
	}
	select {
	case err := <-r.exited:
		if err == nil {
			t.Fatalf("the interrupted apply succeeded:\n%s", out.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("terraform still runs a minute after the stop:\n%s", out.String())
	}
}

// waitProviders waits until the stopped apply's providers have ended:
// gone, or zombies under a parent that never reaps them.
func (r *interruptedApply) waitProviders(t *testing.T) {
	t.Helper()
	if r.pidFile == "" {
		waitGroupGone(t, r.group)
		return
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		live := 0
		for _, pid := range groupPIDs(r.group) {
			if pid != r.group && !isZombieOrGone(pid) {
				live++
			}
		}
		if live == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d processes of the stopped apply still run a minute later", live)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// groupPIDs lists the processes of process group pgid (from /proc).
func groupPIDs(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if g, err := syscall.Getpgid(pid); err == nil && g == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// isZombieOrGone reports whether process pid has ended (a zombie's state
// in /proc is Z).
func isZombieOrGone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z'
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
