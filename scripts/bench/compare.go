package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// compare times two builds of the provider against each other (make bench
// with BENCH_BASE): on one local API and one configuration, the base and
// the candidate take turns phase by phase, round after round, so that the
// machine's drift over minutes, which moves two whole benchmark runs by
// 15% and more, falls on both alike. No floors: the two builds are each
// other's.
func (b *bench) compare(ctx context.Context, w io.Writer) error {
	b.prov = filepath.Join(b.work, "compare")
	if err := writeConfig(b.prov, providerConfig(b.n/2, b.n-b.n/2)); err != nil {
		return err
	}
	if _, err := b.terraform(ctx, b.prov, "", "init", "-input=false"); err != nil {
		return err
	}
	builds := []struct{ name, bin string }{{"before", b.baseBin}, {"after", b.candBin}}
	phases := []struct {
		name string
		args []string
	}{
		{"apply (create)", append([]string{"apply", "-input=false", "-auto-approve"}, b.vars("1")...)},
		{"plan (no changes)", append([]string{"plan", "-input=false", "-detailed-exitcode"}, b.vars("1")...)},
		{"apply (update all)", append([]string{"apply", "-input=false", "-auto-approve"}, b.vars("2")...)},
		{"destroy", append([]string{"destroy", "-input=false", "-auto-approve"}, b.vars("2")...)},
	}
	type cell struct {
		cpu, wall []time.Duration
		counters  map[string]int64
	}
	cells := map[[2]int]*cell{}
	for round := range b.rounds {
		for bi, build := range builds {
			for pi, p := range phases {
				repeat := 1
				if strings.HasPrefix(p.name, "plan") {
					repeat = b.planRepeat
				}
				c := cells[[2]int{bi, pi}]
				if c == nil {
					c = &cell{}
					cells[[2]int{bi, pi}] = c
				}
				for i := range repeat {
					if err := b.resetCounters(ctx); err != nil {
						return err
					}
					rusage := filepath.Join(b.work, "rusage", fmt.Sprintf("%s-%d-%d-%d", build.name, round, pi, i))
					r, err := b.terraformEnv(ctx, b.prov, rusage, []string{"BENCH_PROVIDER_BIN=" + build.bin}, p.args...)
					if err != nil {
						return err
					}
					u, err := providerUsage(rusage)
					if err != nil {
						return err
					}
					if c.counters, err = b.counters(ctx); err != nil {
						return err
					}
					c.cpu, c.wall = append(c.cpu, u.cpu), append(c.wall, r.wall)
				}
			}
		}
	}

	fmt.Fprintf(w, "\n### Before and after, N = %d, %d rounds taking turns\n\n", b.n, b.rounds)
	fmt.Fprintf(w, "Before: %s. After: %s. Load average before → after: %s → %s. Each figure is one run, in the order run.\n\n",
		b.baseLabel, b.candLabel, b.loadBefore, loadAverage())
	fmt.Fprintln(w, "| phase | provider CPU before | provider CPU after | wall before | wall after | requests before | requests after |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- |")
	for pi, p := range phases {
		before, after := cells[[2]int{0, pi}], cells[[2]int{1, pi}]
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", p.name,
			durations(before.cpu), durations(after.cpu), durations(before.wall), durations(after.wall),
			requests(before.counters), requests(after.counters))
	}
	return nil
}

// durations renders times in seconds, in the order measured.
func durations(ds []time.Duration) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = fmt.Sprintf("%.2f", d.Seconds())
	}
	return strings.Join(s, ", ") + " s"
}
