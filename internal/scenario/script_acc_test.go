//go:build unix

package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// scriptSeeds are the generated scripts that run through the terraform
// binary, chosen among the first sixteen so that between them both
// workspaces apply, kills land and their orphans are adopted (Terraform
// alone and with its provider), plans are targeted and without a refresh,
// settings change on the service, and the service moves to a later version.
var scriptSeeds = []int{6, 13, 14}

// scriptSteps is the length of a script.
const scriptSteps = 8

// TestAccScenarioScript runs generated scripts through the terraform
// binary, with the provider built as a process of its own: two workspaces
// of one working directory sharing the project, applies of saved plans
// (targeted, or without a refresh, now and then), applies killed at a
// request boundary (Terraform alone, or its provider too) and applied again
// at once, changes on the service, a move to a later version of the
// service (from B, C or D, which store configs). After each
// step: no two resources of either state hold one config; the service
// lists only configs a state holds (or a warning named); an apply changes
// the service only as `terraform show -json` of its plan says; an apply
// whose values the service accepts succeeds, and the next plan is empty;
// configs a killed apply created are adopted, or named, by the next.
//
// SCENARIO_SCRIPT_SEEDS (seeds separated by commas) runs other scripts.
func TestAccScenarioScript(t *testing.T) {
	seeds := scriptSeeds
	if env := os.Getenv("SCENARIO_SCRIPT_SEEDS"); env != "" {
		seeds = nil
		for _, s := range strings.Split(env, ",") {
			seed, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				t.Fatalf("SCENARIO_SCRIPT_SEEDS: %v", err)
			}
			seeds = append(seeds, seed)
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			script := ScriptGen(scriptSteps).Example(seed)
			env := LocalEnv(t, script.Catalog, script.Current, script.Start, 0)
			t.Cleanup(env.Close)
			r := newScriptRun(t, env, script)
			r.logf("the service is at version %v", script.Start)
			for i, step := range script.Steps {
				r.logf("%d. %s", i+1, step)
				r.run(step)
				r.check()
			}
			t.Logf("the steps:\n%s", strings.Join(r.log, "\n"))
		})
	}
}

// scriptRun is a Script running in one working directory.
type scriptRun struct {
	t         *testing.T
	env       *Env
	script    *Script
	tf        *acctest.Terraform
	selected  string
	leftovers map[int64]bool
	// orphans are the configs a killed apply of a workspace created that
	// no state holds: only those may its next apply adopt.
	orphans map[string]map[int64]bool
	// drift: a workspace whose configs the service changed since its last
	// apply with a refresh.
	drift map[string]bool
	log   []string
}

func newScriptRun(t *testing.T, env *Env, script *Script) *scriptRun {
	tf := acctest.NewTerraform(t, env.ProviderHCL(), nil)
	r := &scriptRun{t: t, env: env, script: script, tf: tf, selected: "default", leftovers: map[int64]bool{},
		orphans: map[string]map[int64]bool{}, drift: map[string]bool{}}
	for _, ws := range script.Workspaces[1:] {
		r.terraform("workspace", "new", ws)
	}
	r.selectWorkspace("default")
	return r
}

func (r *scriptRun) logf(format string, args ...any) {
	r.log = append(r.log, fmt.Sprintf(format, args...))
}

// fail ends the script with its steps so far and the catalog.
func (r *scriptRun) fail(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("%s\n\n# The steps:\n%s\n\n# The plugin catalog:\n%s", fmt.Sprintf(format, args...),
		strings.Join(r.log, "\n"), r.script.Catalog.JSON())
}

// terraform runs a command that must succeed.
func (r *scriptRun) terraform(args ...string) string {
	r.t.Helper()
	out, err := r.tf.Run(args...)
	if err != nil {
		r.fail("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (r *scriptRun) selectWorkspace(ws string) {
	if r.selected != ws {
		r.terraform("workspace", "select", ws)
		r.selected = ws
	}
}

// stateIDs returns the configs a workspace's state holds, by resource
// (r0, r1).
func (r *scriptRun) stateIDs(ws string) map[string]int64 {
	file := "terraform.tfstate"
	if ws != "default" {
		file = filepath.Join("terraform.tfstate.d", ws, "terraform.tfstate")
	}
	out := map[string]int64{}
	for addr, id := range r.tf.StateIDsOf(file) {
		out[addr[strings.LastIndex(addr, ".")+1:]] = id
	}
	return out
}

func (r *scriptRun) run(step ScriptStep) {
	ctx := context.Background()
	switch step.Op {
	case "version":
		if err := r.env.Local.SetVersion(r.script.Move); err != nil {
			r.fail("%v", err)
		}
		r.logf("   the service is at version %v", r.script.Move)
		for _, ws := range r.script.Workspaces {
			r.drift[ws] = true
		}
	case "change":
		id, ok := r.stateIDs(step.Workspace)[fmt.Sprint("r", step.Resource)]
		if !ok {
			r.logf("   (not in the state: nothing to change)")
			return
		}
		r.change(ctx, step, id)
		r.drift[step.Workspace] = true
	default:
		var kill *Kill
		if step.Op == "kill" {
			kill = &step.Kill
		}
		r.apply(step, kill)
	}
}

// change makes a change on the service to config id.
func (r *scriptRun) change(ctx context.Context, step ScriptStep, id int64) {
	coll := Collection(r.script.Kinds[step.Resource])
	var err error
	switch e := step.Edit; {
	case e.Delete:
		_, err = r.env.API.Update(ctx, r.env.ProjectID, coll, id, client.RecordInput{Deleted: client.Some(true)})
	case e.Setting != nil:
		rec, gerr := r.env.API.Get(ctx, r.env.ProjectID, coll, id)
		if gerr != nil {
			r.fail("reading config %d: %v", id, gerr)
		}
		stored := object(mustStored(r, id))
		form := e.Setting.Form(stored, r.script.Catalog.SecretKeys(rec.Plugin))
		_, err = r.env.API.Update(ctx, r.env.ProjectID, coll, id, client.RecordInput{Settings: client.Some(form)})
	default:
		_, err = r.env.API.Update(ctx, r.env.ProjectID, coll, id, e.Fields)
	}
	r.logf("   config %d changed (%v)", id, err)
}

func mustStored(r *scriptRun, id int64) json.RawMessage {
	project, _ := strconv.ParseInt(r.env.ProjectID, 10, 64)
	raw, err := r.env.Local.StoredConfig(project, id)
	if err != nil {
		r.fail("reading config %d: %v", id, err)
	}
	return raw
}

// flagArgs renders flags as terraform's options.
func (r *scriptRun) flagArgs(f Flags) []string {
	var args []string
	for _, name := range f.Target {
		i, _ := strconv.Atoi(strings.TrimPrefix(name, "r"))
		args = append(args, "-target="+TypeName(r.script.Kinds[i])+"."+name)
	}
	if !f.Refresh {
		args = append(args, "-refresh=false")
	}
	return args
}

// apply plans the step's configuration into a saved plan, reads it as
// `terraform show -json` shows it, applies it (killed as kill says) and
// checks the outcome.
func (r *scriptRun) apply(step ScriptStep, kill *Kill) {
	ws := step.Workspace
	r.selectWorkspace(ws)
	r.tf.WriteConfig(r.script.HCL(r.env, step.Configs))
	flags := r.flagArgs(step.Flags)
	r.env.Local.ResetCounters()
	out, err := r.tf.Run(append([]string{"plan", "-out=tfplan", "-no-color", "-input=false"}, flags...)...)
	if c := r.env.Local.Counters(); c["create"]+c["update"]+c["delete"] != 0 {
		r.fail("a plan wrote to the service: %s", describeCounters(c))
	}
	if err != nil {
		r.logf("   plan refused")
		r.checkRefused(step, nil, out)
		return
	}
	shown := r.show(step)
	verdicts := r.verdicts(step, shown)
	before, err := r.env.Snapshot(context.Background(), nil)
	if err != nil {
		r.fail("%v", err)
	}
	held := r.heldAll()
	run := r.runApply(kill)
	out, err = run.out, run.err
	after, serr := r.env.Snapshot(context.Background(), before)
	if serr != nil {
		r.fail("%v", serr)
	}
	orphans := r.orphansOf(held, before, after)
	adopted := map[int64]bool{}
	for _, id := range idsIn(out, adoptedText) {
		if !r.orphans[ws][id] {
			r.fail("the apply adopted config %d, which no killed apply of %s left:\n%s", id, ws, out)
		}
		adopted[id] = true
	}
	if len(adopted) > 0 {
		r.logf("   adopted %v", slices.Sorted(maps.Keys(adopted)))
	}
	a := Applied{Shown: shown, Refresh: step.Flags.Refresh, Adopted: adopted, Done: map[string]bool{}}
	for _, s := range shown {
		a.Done[s.Name] = err == nil && !run.killed // which resources of a failed apply succeeded, the output does not say
	}
	if problems := ChangesAsPlanned(r.script.Catalog, a, before, after); len(problems) > 0 {
		r.fail("the apply changed the service other than as its plan said:\n  %s\n%s", joinLines(problems), out)
	}
	if run.killed {
		r.logf("   killed; the service holds %d configs that no state holds", len(orphans))
		r.afterKill(step, orphans)
		return
	}
	for _, id := range idsIn(out, leftoverText) {
		r.logf("   config %d named as left over", id)
		r.leftovers[id] = true
	}
	if err != nil {
		r.logf("   apply refused")
		r.checkRefused(step, verdicts, out)
		return
	}
	if step.Flags.Refresh && step.Flags.Target == nil {
		r.drift[ws] = false
	}
	if step.Flags.Refresh || !r.drift[ws] {
		if plan, code := r.tf.PlanExitCode(r.flagArgs(step.Flags)...); code != 0 {
			r.fail("after a successful apply the next plan is not empty (exit code %d):\n%s", code, plan)
		}
	}
}

// applyRun is what applying a saved plan did: its output and error,
// whether the kill came, and the answer a killed provider never got.
type applyRun struct {
	out    string
	err    error
	killed bool
	lost   *LostAnswer
}

// runApply applies the saved plan, killed as kill says (nil: not at all).
func (r *scriptRun) runApply(kill *Kill) applyRun {
	if kill == nil {
		out, err := r.tf.Run("apply", "-no-color", "-input=false", "tfplan")
		return applyRun{out: out, err: err}
	}
	var buf bytes.Buffer
	cmd := r.tf.Command(context.Background(), nil, "apply", "-no-color", "-input=false", "tfplan")
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		r.fail("%v", err)
	}
	pid := cmd.Process.Pid
	r.t.Cleanup(func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })
	var waitErr error
	exited := make(chan struct{})
	go func() { waitErr = cmd.Wait(); close(exited) }()
	r.env.kills.arm(*kill, func() {
		target := pid // Terraform alone: its provider outlives it
		if kill.Provider {
			target = -pid // the process group: Terraform and its provider
		}
		_ = syscall.Kill(target, syscall.SIGKILL)
		<-exited
	})
	<-exited
	fired, lost := r.env.kills.disarm()
	return applyRun{out: buf.String(), err: waitErr, killed: fired, lost: lost}
}

// afterKill applies the killed step again at once, and checks that every
// config the killed apply created that no state holds is held now
// (adopted: its answer came once Terraform was gone) or named in a
// warning (its answer never came, or Terraform got it and did not save
// it, which the provider cannot tell from a config moved to another state).
func (r *scriptRun) afterKill(step ScriptStep, orphans map[int64]bool) {
	again := step
	again.Op = "apply"
	r.logf("   applied again at once")
	outBefore := len(r.log)
	r.orphans[step.Workspace] = orphans
	r.apply(again, nil)
	delete(r.orphans, step.Workspace)
	held := r.heldAll()
	for id := range orphans {
		if _, ok := held[id]; ok {
			continue
		}
		if r.leftovers[id] {
			continue
		}
		r.fail("config %d, which the killed apply created, is held by no state and no warning named it (%v)",
			id, r.log[outBefore:])
	}
}

// orphansOf lists the configs after holds that before did not and that no
// state holds (held, by id, before the apply).
func (r *scriptRun) orphansOf(held map[int64]string, before, after Snapshot) map[int64]bool {
	now := r.heldAll()
	out := map[int64]bool{}
	for id, rec := range after {
		if _, existed := before[id]; existed || rec.Deleted {
			continue
		}
		if _, ok := now[id]; ok {
			continue
		}
		if _, ok := held[id]; !ok {
			out[id] = true
		}
	}
	return out
}

// heldAll returns every config a state holds, with the resource holding
// it; two resources holding one config fail the script.
func (r *scriptRun) heldAll() map[int64]string {
	out := map[int64]string{}
	for _, ws := range r.script.Workspaces {
		for name, id := range r.stateIDs(ws) {
			addr := ws + "." + name
			if other, ok := out[id]; ok {
				r.fail("%s and %s both hold config %d", other, addr, id)
			}
			out[id] = addr
		}
	}
	return out
}

// check runs after every step: no two resources of any state hold one
// config, and the service lists only configs a state holds or a warning
// named.
func (r *scriptRun) check() {
	held := r.heldAll()
	active, err := r.env.ActiveIDs(context.Background())
	if err != nil {
		r.fail("%v", err)
	}
	for _, id := range slices.Sorted(maps.Keys(active)) {
		if _, ok := held[id]; !ok && !r.leftovers[id] {
			r.fail("the service lists config %d, which no state holds and no warning named", id)
		}
	}
}

// verdicts asks the service about each configuration the plan writes,
// by resource.
func (r *scriptRun) verdicts(step ScriptStep, shown []Shown) map[string]verdict {
	out := map[string]verdict{}
	for _, s := range shown {
		if s.Action != "create" && s.Action != "update" && s.Action != "replace" {
			continue
		}
		i, _ := strconv.Atoi(s.Name[strings.LastIndex(s.Name, ".r")+2:])
		ok, why, err := r.env.Verdict(context.Background(), step.Configs[i], s.Action)
		if err != nil {
			r.fail("asking the service: %v", err)
		}
		out[s.Name] = verdict{ok, why}
	}
	return out
}

// checkRefused checks a plan or apply that failed: the service refuses
// some of the values it would write (verdicts; nil for a plan, whose
// resources are judged as the configuration says, every one of them, since
// Terraform validates those a -target leaves out too), or the provider
// refused by its own rules on plugin settings, or a create (or replacement)
// the service no longer stores.
func (r *scriptRun) checkRefused(step ScriptStep, verdicts map[string]verdict, out string) {
	for _, rule := range []string{"Secret setting in config", "Non-secret setting in secret_config_wo",
		"Setting in both config and secret_config_wo", "The service no longer creates", "The service made a hog function",
		replacementRefused} {
		if strings.Contains(out, rule) {
			return
		}
	}
	if verdicts == nil {
		verdicts = map[string]verdict{}
		ids := r.stateIDs(step.Workspace)
		for i, c := range step.Configs {
			name := fmt.Sprint("r", i)
			if c == nil {
				continue
			}
			action := "update"
			if _, ok := ids[name]; !ok {
				action = "create"
			}
			ok, why, err := r.env.Verdict(context.Background(), c, action)
			if err != nil {
				r.fail("asking the service: %v", err)
			}
			verdicts[name] = verdict{ok, why}
		}
	}
	for _, v := range verdicts {
		if !v.ok {
			return
		}
	}
	r.fail("terraform failed, but the service accepts every value it would write:\n%s", out)
}

var (
	adoptedText  = regexp.MustCompile(`Adopted [a-z ]+ (\d+), created by a killed run`)
	leftoverText = regexp.MustCompile(`(?i)[a-z ]+ (\d+) may be left over from a killed run`)
)

// idsIn returns the config ids the warnings of a command's output matching
// re name.
func idsIn(out string, re *regexp.Regexp) []int64 {
	var ids []int64
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		if id, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}
