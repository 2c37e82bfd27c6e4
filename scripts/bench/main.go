// Command bench times terraform with the pipeline provider against the local
// API, beside the same operations on terraform_data resources (the floor:
// Terraform with no plugin) and on the things of the smallest framework
// provider (the plugin floor, scripts/bench/nullprovider), and prints a
// Markdown report: per phase the wall and CPU times, their ratios, the HTTP
// requests the local API counted by operation, and the provider's peak RSS;
// the state each configuration keeps per resource; and the performance
// targets (request counts, memory, state size, time against the plugin
// floor).
//
// scripts/bench/bench.sh (make bench) builds and installs what it needs,
// starts a fresh local API per N, and runs it once per N:
//
//	bench -n 1000 -url http://127.0.0.1:PORT -work DIR
//
// The provider must be installed behind scripts/bench/launcher, which reports
// each provider process's rusage to $BENCH_RUSAGE_DIR.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	if err := runMain(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type options struct {
	n          int
	url        string
	work       string
	rpm        string // requests_per_minute for the timed phases; "" = the provider's default
	planRepeat int
	rateLimit  int
	// scenario is "phases" (the timed phases beside the floors),
	// "ratelimit" (one apply against a rate-limited API; ratelimit.go),
	// "compare" (compare.go) or "order" (order.go).
	scenario string
	// latency is added to each request of the order scenario's applies.
	latency string
	// profile makes each provider process write a CPU profile beside its
	// rusage (a provider built with the benchprofile tag).
	profile bool
	// For "compare": the two provider binaries and how many rounds.
	baseBin, candBin     string
	baseLabel, candLabel string // what each binary was built from
	rounds               int
}

func runMain() error {
	var o options
	flag.IntVar(&o.n, "n", 100, "records to manage, half of each kind")
	flag.StringVar(&o.url, "url", "", "base URL of a local API started with -debug-routes")
	flag.StringVar(&o.work, "work", "", "scratch directory")
	flag.StringVar(&o.rpm, "rpm", "0", "provider requests_per_minute for the timed phases (empty: the provider's default)")
	flag.IntVar(&o.planRepeat, "plan-repeat", 3, "no-change plans to time (the median is reported)")
	flag.IntVar(&o.rateLimit, "rate-limit", 480, "per-minute limit the local API enforces for the rate-limited plan")
	flag.BoolVar(&o.profile, "profile", false, "have the provider (built with -tags benchprofile) write CPU profiles")
	flag.StringVar(&o.scenario, "scenario", "phases", `"phases" (beside the floors), "ratelimit" (one apply against an API limited to -rate-limit per minute), "compare" (-base-bin against -cand-bin, taking turns) or "order" (an order resource over -n configs, -base-bin when set and -cand-bin)`)
	flag.StringVar(&o.latency, "latency", "0s", "order: latency the local API adds to each request of the timed applies")
	flag.StringVar(&o.baseBin, "base-bin", "", "compare: the provider binary before")
	flag.StringVar(&o.candBin, "cand-bin", "", "compare: the provider binary after")
	flag.IntVar(&o.rounds, "rounds", 2, "compare: rounds of every phase per build")
	flag.StringVar(&o.baseLabel, "base-label", "before", "compare: what the binary before was built from")
	flag.StringVar(&o.candLabel, "cand-label", "after", "compare: what the binary after was built from")
	flag.Parse()
	if o.url == "" || o.work == "" || o.n < 2 {
		return errors.New("need -url, -work and -n >= 2")
	}
	b := &bench{options: o, api: o.url}
	switch o.scenario {
	case "phases":
		return b.run(context.Background())
	case "ratelimit":
		return b.runRateLimit(context.Background(), os.Stdout)
	case "order":
		if o.candBin == "" {
			return errors.New("order needs -cand-bin")
		}
		return b.runOrder(context.Background(), os.Stdout)
	case "compare":
		if o.baseBin == "" || o.candBin == "" {
			return errors.New("compare needs -base-bin and -cand-bin")
		}
		b.loadBefore = loadAverage()
		return b.compare(context.Background(), os.Stdout)
	}
	return fmt.Errorf("unknown -scenario %q", o.scenario)
}

type bench struct {
	options
	api        string
	loadBefore string
	// The configuration directories: terraform_data (the floor), the
	// smallest framework provider (the plugin floor), and the provider.
	floor, plugin, prov string
	results             []result
	// stateBytes is the size of each configuration's state after the apply.
	stateBytes [3]int64
}

// result is one phase, timed on the three configurations.
type result struct {
	phase                   string
	floor, plugin, provider run
	counters                map[string]int64
	usage                   usage
	note                    string
}

// run is one terraform command: its wall time, and the CPU time of
// terraform and every process it waited for (the provider among them).
type run struct {
	wall, cpu time.Duration
}

// usage is what the provider processes of a command reported.
type usage struct {
	peakRSSKiB int64
	cpu        time.Duration
	procs      int
}

func (b *bench) run(ctx context.Context) error {
	b.loadBefore = loadAverage()
	b.floor = filepath.Join(b.work, "floor")
	b.plugin = filepath.Join(b.work, "plugin")
	b.prov = filepath.Join(b.work, "provider")
	half := b.n / 2
	configs := map[string]string{b.floor: floorConfig(b.n), b.plugin: pluginConfig(b.n), b.prov: providerConfig(half, b.n-half)}
	for dir, config := range configs {
		if err := writeConfig(dir, config); err != nil {
			return err
		}
		if _, err := b.terraform(ctx, dir, "", "init", "-input=false"); err != nil {
			return err
		}
	}

	if err := b.phase(ctx, "apply (create)", 1, b.vars("1"), "apply", "-auto-approve"); err != nil {
		return err
	}
	for i, dir := range []string{b.floor, b.plugin, b.prov} {
		fi, err := os.Stat(filepath.Join(dir, "terraform.tfstate"))
		if err != nil {
			return err
		}
		b.stateBytes[i] = fi.Size()
	}
	if err := b.phase(ctx, "plan (no changes)", b.planRepeat, b.vars("1"), "plan", "-detailed-exitcode"); err != nil {
		return err
	}
	if err := b.rateLimitedPlan(ctx); err != nil {
		return err
	}
	if err := b.phase(ctx, "apply (update all)", 1, b.vars("2"), "apply", "-auto-approve"); err != nil {
		return err
	}
	if err := b.phase(ctx, "destroy", 1, b.vars("2"), "destroy", "-auto-approve"); err != nil {
		return err
	}
	b.report(os.Stdout)
	return nil
}

// vars are the variables of a run: the generation that names records, and
// the provider's rate limit.
func (b *bench) vars(gen string) []string {
	v := []string{"-var", "gen=" + gen}
	if b.rpm != "" {
		v = append(v, "-var", "rpm="+b.rpm)
	}
	return v
}

// phase runs the same command repeat times on each configuration in turn
// and keeps the run of median wall time of each (a command that changes
// the state runs once). A plan with -detailed-exitcode fails the benchmark
// when it is not empty.
func (b *bench) phase(ctx context.Context, name string, repeat int, vars []string, args ...string) error {
	r := result{phase: name}
	if repeat > 1 {
		r.note = fmt.Sprintf("median of %d", repeat)
	}
	cmd := append(append([]string{args[0], "-input=false"}, args[1:]...), vars...)
	var floors, plugins, provs []run
	var usages []usage
	for i := range repeat {
		f, err := b.terraform(ctx, b.floor, "", cmd...)
		if err != nil {
			return err
		}
		pl, err := b.terraform(ctx, b.plugin, "", cmd...)
		if err != nil {
			return err
		}
		if err := b.resetCounters(ctx); err != nil {
			return err
		}
		rusage := filepath.Join(b.work, "rusage", fmt.Sprintf("%s-%d", strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(name), i))
		p, err := b.terraform(ctx, b.prov, rusage, cmd...)
		if err != nil {
			return err
		}
		if r.counters, err = b.counters(ctx); err != nil {
			return err
		}
		u, err := providerUsage(rusage)
		if err != nil {
			return err
		}
		floors, plugins, provs, usages = append(floors, f), append(plugins, pl), append(provs, p), append(usages, u)
	}
	r.floor, r.plugin = median(floors), median(plugins)
	mid := medianIndex(provs)
	r.provider, r.usage = provs[mid], usages[mid]
	for _, u := range usages {
		r.usage.peakRSSKiB = max(r.usage.peakRSSKiB, u.peakRSSKiB)
	}
	b.results = append(b.results, r)
	return nil
}

// rateLimitedPlan runs the no-change plan against the local API enforcing
// the live service's per-key limit, with the provider's default client-side
// limit, and reports the 429s it got. Its floors are the plain plan's.
func (b *bench) rateLimitedPlan(ctx context.Context) error {
	if err := b.setRateLimit(ctx, b.rateLimit); err != nil {
		return err
	}
	defer func() { _ = b.setRateLimit(context.WithoutCancel(ctx), 0) }()
	if err := b.resetCounters(ctx); err != nil {
		return err
	}
	rusage := filepath.Join(b.work, "rusage", "plan-limited")
	p, err := b.terraform(ctx, b.prov, rusage, "plan", "-input=false", "-detailed-exitcode", "-var", "gen=1")
	if err != nil {
		return err
	}
	plain := b.results[len(b.results)-1]
	r := result{
		phase: fmt.Sprintf("plan, API limit %d/min", b.rateLimit), provider: p,
		floor: plain.floor, plugin: plain.plugin, note: "provider's default rate limit",
	}
	if r.counters, err = b.counters(ctx); err != nil {
		return err
	}
	if r.usage, err = providerUsage(rusage); err != nil {
		return err
	}
	b.results = append(b.results, r)
	return nil
}

// terraform runs one terraform command in dir and returns its times.
// rusageDir, when set, collects the provider processes' rusage.
func (b *bench) terraform(ctx context.Context, dir, rusageDir string, args ...string) (run, error) {
	return b.terraformEnv(ctx, dir, rusageDir, nil, args...)
}

// terraformEnv is terraform with extra environment variables (KEY=VALUE).
func (b *bench) terraformEnv(ctx context.Context, dir, rusageDir string, env []string, args ...string) (run, error) {
	argv := append([]string{"-chdir=" + dir}, append(args, "-no-color")...)
	cmd := exec.CommandContext(ctx, "terraform", argv...) //nolint:gosec // terraform with the benchmark's own arguments
	cmd.Env = append(os.Environ(), env...)
	if rusageDir != "" {
		if err := os.MkdirAll(rusageDir, 0o750); err != nil {
			return run{}, err
		}
		cmd.Env = append(cmd.Env, "BENCH_RUSAGE_DIR="+rusageDir)
		if b.profile {
			cmd.Env = append(cmd.Env, "BENCH_PROFILE_DIR="+rusageDir)
		}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if err != nil {
		tail := out.String()
		if len(tail) > 4000 {
			tail = tail[len(tail)-4000:]
		}
		return run{}, fmt.Errorf("terraform %s in %s: %w\n%s", strings.Join(args, " "), dir, err, tail)
	}
	// Linux counts the CPU of reaped descendants in the child's usage.
	return run{wall: elapsed, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}, nil
}

func (b *bench) resetCounters(ctx context.Context) error {
	return b.debug(ctx, http.MethodPost, "counters/reset", nil, nil)
}

func (b *bench) counters(ctx context.Context) (map[string]int64, error) {
	var c map[string]int64
	return c, b.debug(ctx, http.MethodGet, "counters", nil, &c)
}

func (b *bench) setRateLimit(ctx context.Context, perMinute int) error {
	return b.debug(ctx, http.MethodPut, "rate-limit", map[string]int{"per_minute": perMinute}, nil)
}

// debug calls one of the local API's debug routes.
func (b *bench) debug(ctx context.Context, method, route string, in, out any) error {
	var body io.Reader
	if in != nil {
		buf, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.api+"/_localapi/"+route, body)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s /_localapi/%s: %s %s (is the local API running with -debug-routes?)", method, route, resp.Status, msg)
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

// providerUsage sums up what the provider processes reported to dir: the
// largest peak RSS, their CPU time, and how many there were.
func providerUsage(dir string) (usage, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return usage{}, err
	}
	if len(files) == 0 {
		return usage{}, fmt.Errorf("no provider process reported to %s: is the provider installed behind the launcher?", dir)
	}
	u := usage{procs: len(files)}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return usage{}, err
		}
		var r struct {
			MaxRSSKiB int64   `json:"max_rss_kib"`
			UserSec   float64 `json:"user_sec"`
			SysSec    float64 `json:"sys_sec"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return usage{}, fmt.Errorf("%s: %w", f, err)
		}
		u.peakRSSKiB = max(u.peakRSSKiB, r.MaxRSSKiB)
		u.cpu += time.Duration((r.UserSec + r.SysSec) * float64(time.Second))
	}
	return u, nil
}

func median(rs []run) run { return rs[medianIndex(rs)] }

// medianIndex is the index of the run with the median wall time.
func medianIndex(rs []run) int {
	idx := make([]int, len(rs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(rs[a].wall, rs[b].wall) })
	return idx[len(idx)/2]
}

// counterOrder is the order operations are reported in.
var counterOrder = []string{"list", "retrieve", "create", "update", "delete", "rearrange", "job", "frontend", "other", "throttled"}

func (b *bench) report(w io.Writer) {
	fmt.Fprintf(w, "\n### N = %d (%d transformation + %d import app configs)\n\n", b.n, b.n/2, b.n-b.n/2)
	rpm := b.rpm
	if rpm == "" {
		rpm = "default (400)"
	}
	fmt.Fprintf(w, "Provider `requests_per_minute = %s` unless noted. Load average before → after: %s → %s. "+
		"State after the apply: floor %s, plugin floor %s, provider %s.\n\n",
		rpm, b.loadBefore, loadAverage(), b.stateSize(0), b.stateSize(1), b.stateSize(2))
	fmt.Fprintln(w, "| phase | floor | plugin floor | provider | ratio to floor / plugin floor | CPU: floor / plugin floor / provider (provider process) | requests (by operation) | provider peak RSS |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
	for _, r := range b.results {
		phase := r.phase
		if r.note != "" {
			phase += " (" + r.note + ")"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.2f× / %.2f× | %s / %s / %s (%s) | %s | %.1f MiB |\n",
			phase, seconds(r.floor.wall), seconds(r.plugin.wall), seconds(r.provider.wall),
			ratio(r.provider.wall, r.floor.wall), ratio(r.provider.wall, r.plugin.wall),
			seconds(r.floor.cpu), seconds(r.plugin.cpu), seconds(r.provider.cpu), seconds(r.usage.cpu),
			requests(r.counters), float64(r.usage.peakRSSKiB)/1024)
	}
	b.targets(w)
	if b.profile {
		fmt.Fprintf(w, "\nCPU profiles of the provider processes, by phase: %s/*/cpu.*.pprof "+
			"(`go tool pprof -top -cum FILE`; the largest of a phase is the process that did the work).\n",
			filepath.Join(b.work, "rusage"))
	}
}

// stateSize renders the size of configuration i's state after the apply:
// in all, and per resource.
func (b *bench) stateSize(i int) string {
	return fmt.Sprintf("%.0f KiB (%d bytes per resource)", float64(b.stateBytes[i])/1024, b.perConfig(i))
}

// perConfig is the state of configuration i after the apply, per resource.
func (b *bench) perConfig(i int) int64 { return b.stateBytes[i] / int64(b.n) }

func ratio(a, b time.Duration) float64 { return a.Seconds() / b.Seconds() }

// maxStatePerConfig is the most state a config may take, in bytes.
const maxStatePerConfig = 600

// parallelism is Terraform's default -parallelism, which the benchmark
// keeps.
const parallelism = 10

// maxPluginFloorRatio is how many times the plugin floor's time each phase
// may take.
const maxPluginFloorRatio = 2.0

// targets checks the performance targets; they are stated for N = 1000 and
// checked here for any N. The request targets are exact, the others are
// read from one run.
func (b *bench) targets(w io.Writer) {
	find := func(prefix string) result {
		for _, r := range b.results {
			if strings.HasPrefix(r.phase, prefix) {
				return r
			}
		}
		return result{}
	}
	apply, plan, limited := find("apply (create)"), find("plan (no changes)"), find("plan, API limit")
	update, destroy := find("apply (update all)"), find("destroy")
	var peak int64
	for _, r := range b.results {
		peak = max(peak, r.usage.peakRSSKiB)
	}
	n := int64(b.n)
	budget := int64(math.Ceil(float64(b.n)/100)) + 5
	fmt.Fprintln(w, "\n| target | measured | |")
	fmt.Fprintln(w, "| --- | --- | --- |")
	fmt.Fprintf(w, "| no-change plan ≤ ceil(N/100)+5 = %d requests | %d | %s |\n", budget, plan.counters["total"], check(plan.counters["total"] <= budget))
	fmt.Fprintf(w, "| apply: exactly N = %d creates | %d | %s |\n", b.n, apply.counters["create"], check(apply.counters["create"] == n))
	// Besides the creates, the plan and the apply each look once at each
	// collection (whether the service stores configs) and each plugin (its
	// settings schema), and the creates that start before the service has
	// shown it stores configs send their settings in an update after.
	looks := int64(2 * (2 + 2))
	other := apply.counters["total"] - apply.counters["create"]
	fmt.Fprintf(w, "| apply: other requests ≤ %d looks + %d settings updates | %d | %s |\n", looks, parallelism, other,
		check(apply.counters["total"]-apply.counters["create"]-apply.counters["update"] <= looks && apply.counters["update"] <= parallelism))
	for _, r := range []result{update, destroy} {
		// One PATCH per config, beside the refresh's reads (a no-change
		// plan's).
		writes := r.counters["total"] - r.counters["list"] - r.counters["retrieve"]
		fmt.Fprintf(w, "| %s: exactly N = %d updates, no other write | %d | %s |\n", r.phase, b.n, writes,
			check(r.counters["update"] == n && writes == n))
	}
	fmt.Fprintf(w, "| plan at %d/min: zero 429s | %d | %s |\n", b.rateLimit, limited.counters["throttled"], check(limited.counters["throttled"] == 0))
	fmt.Fprintf(w, "| provider peak RSS ≤ 100 MiB | %.1f MiB | %s |\n", float64(peak)/1024, check(peak <= 100*1024))
	fmt.Fprintf(w, "| state ≤ %d bytes per config | %d bytes | %s |\n", maxStatePerConfig, b.perConfig(2), check(b.perConfig(2) <= maxStatePerConfig))
	for _, r := range []result{plan, apply, update, destroy} {
		q := ratio(r.provider.wall, r.plugin.wall)
		fmt.Fprintf(w, "| %s ≤ %.1f× plugin floor | %.2f× | %s |\n", strings.TrimSuffix(r.phase, " (no changes)"), maxPluginFloorRatio, q, check(q <= maxPluginFloorRatio))
	}
}

// check renders whether a target is met.
func check(ok bool) string {
	if ok {
		return "met"
	}
	return "**not met**"
}

// loadAverage is the 1, 5 and 15 minute load average: other work on the
// machine skews wall times, so the report says how busy it was.
func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func requests(c map[string]int64) string {
	var parts []string
	for _, op := range counterOrder {
		if c[op] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", op, c[op]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return fmt.Sprintf("%d: %s", c["total"], strings.Join(parts, ", "))
}

func writeConfig(dir, config string) error {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600)
}

// The benchmark's configs set what a user typically sets: a name, a
// description, filters and plugin settings. The floors keep the same
// content in their input (one JSON text), so that the three differ only in
// what the provider does with it: compare the provider with a plugin that
// stores the same bytes and does nothing else.

// benchFilters are the benchmark's filters, as HCL.
const benchFilters = `{ events = [{ id = "$pageview", type = "events" }] }`

// floorInput is the input of the floors' i-th resource: the content of the
// provider's i-th config.
const floorInput = `jsonencode({
    name        = "r-${count.index}-${var.gen}"
    description = "Benchmark config ${count.index}"
    filters     = ` + benchFilters + `
    config      = { locale = "en" }
  })`

// floorConfig is n terraform_data resources whose input changes with the
// generation, as the provider's records' names do.
func floorConfig(n int) string {
	return fmt.Sprintf(`variable "gen" {
  type = string
}

variable "rpm" {
  type    = number
  default = null
}

resource "terraform_data" "r" {
  count = %d
  input = %s
}
`, n, floorInput)
}

// pluginConfig is n things of the plugin floor (scripts/bench/nullprovider)
// whose input changes with the generation.
func pluginConfig(n int) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    benchnull = {
      source = "pipelinecfg/benchnull"
    }
  }
}

variable "gen" {
  type = string
}

variable "rpm" {
  type    = number
  default = null
}

resource "benchnull_thing" "r" {
  count = %d
  input = %s
}
`, n, floorInput)
}

// providerConfig is t transformation and i import app configs; the
// provider's host, key and project come from the environment.
func providerConfig(t, i int) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    pipeline = {
      source = "pipelinecfg/pipeline"
    }
  }
}

variable "gen" {
  type = string
}

variable "rpm" {
  type    = number
  default = null
}

provider "pipeline" {
  requests_per_minute = var.rpm
}

resource "pipeline_transformation_config" "t" {
  count       = %[1]d
  plugin      = 1
  order       = count.index
  name        = "t-${count.index}-${var.gen}"
  description = "Benchmark config ${count.index}"
  filters     = jsonencode(%[3]s)
  config      = jsonencode({ locale = "en" })
}

resource "pipeline_import_app_config" "i" {
  count       = %[2]d
  plugin      = 3
  order       = count.index
  name        = "i-${count.index}-${var.gen}"
  description = "Benchmark config ${count.index}"
  filters     = jsonencode(%[3]s)
  config      = jsonencode({ bucket = "bench" })
}
`, t, i, benchFilters)
}
