// Command testmatrix reports the test runs of `make test`, one per
// Terraform or OpenTofu binary, and fails the suite when a test never ran.
//
//	go test -json ... | testmatrix stream -label L -tool BIN -out FILE
//	    passes the run through as it goes: a line per package, the output of
//	    each failed test; keeps the JSON events in FILE and exits non-zero
//	    when a test or package failed. -live records that the run was against
//	    a live instance (the default: POSTHOG_HOST is set where stream runs).
//	testmatrix check FILE...
//	    prints a table of the runs (tool, version, passed, failed, skipped)
//	    and fails when a test was skipped in every run: a feature gated on a
//	    version that no run used is untested, not passing. Only a test that
//	    every run skipped while live (where tests that need the local API
//	    skip by design), and one whose skip says it is left to `make
//	    check-official` (it needs a binary of the official PostHog provider,
//	    which a clean clone cannot build), are reported without failing.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "stream":
		err = stream(os.Args[2:])
	case "check":
		err = check(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testmatrix:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: testmatrix stream -label L -tool BIN -out FILE < go-test-json\n       testmatrix check FILE...")
	os.Exit(2)
}

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Time    time.Time `json:",omitempty"`
	Action  string
	Package string  `json:",omitempty"`
	Test    string  `json:",omitempty"`
	Elapsed float64 `json:",omitempty"`
	Output  string  `json:",omitempty"`
}

// header is the first line stream writes to its file: which run it was.
type header struct {
	Label   string `json:"label"`
	Tool    string `json:"tool"`
	Version string `json:"version"`
	// Live: the run was against a live instance, not the in-process local
	// API, so tests that need the local API skipped there by design.
	Live bool `json:"live,omitempty"`
}

func stream(args []string) error {
	fs := flag.NewFlagSet("stream", flag.ExitOnError)
	label := fs.String("label", "", "name of the run")
	tool := fs.String("tool", "", "the terraform or tofu binary the run used")
	out := fs.String("out", "", "file for the run's events")
	live := fs.Bool("live", os.Getenv("POSTHOG_HOST") != "", "the run is against a live instance (default: POSTHOG_HOST is set)")
	_ = fs.Parse(args)
	if *label == "" || *tool == "" || *out == "" {
		usage()
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	h := header{Label: *label, Tool: *tool, Version: toolVersion(*tool), Live: *live}
	if err := json.NewEncoder(w).Encode(h); err != nil {
		return err
	}
	mode := ""
	if h.Live {
		mode = " (live)"
	}
	fmt.Printf("== %s: %s%s\n", h.Label, h.Version, mode)

	output := map[string][]string{} // per package/test, until it ends
	failed := false
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		_, _ = w.Write(append(line, '\n'))
		var e event
		if json.Unmarshal(line, &e) != nil {
			fmt.Println(string(line)) // a build error or the like: show it as is
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "output":
			output[key] = append(output[key], e.Output)
		case "pass", "skip":
			delete(output, key)
			if e.Test == "" {
				fmt.Printf("ok   %s (%.1fs)\n", e.Package, e.Elapsed)
			}
		case "fail":
			failed = true
			if e.Test != "" {
				fmt.Print(strings.Join(output[key], ""))
			} else {
				// Package-level output: a panic, a timeout, a TestMain failure.
				fmt.Print(strings.Join(output[key], ""))
				fmt.Printf("FAIL %s (%.1fs)\n", e.Package, e.Elapsed)
			}
			delete(output, key)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if failed {
		return fmt.Errorf("%s: tests failed", *label)
	}
	return nil
}

// toolVersion is the first line of `BIN version`, e.g. "Terraform v1.11.4".
func toolVersion(bin string) string {
	out, err := exec.CommandContext(context.Background(), bin, "version").Output() //nolint:gosec // G204: the binary the run uses
	if err != nil {
		return "unknown version of " + bin
	}
	first, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(first)
}

// run is what check reads back from one stream file.
type run struct {
	header
	// outcome of each test ("pkg Test/sub") and the skip message of skipped ones.
	outcome map[string]string
	skipMsg map[string]string
}

func readRun(name string) (*run, error) {
	f, err := os.Open(name) //nolint:gosec // G703: a file named on the command line by make test
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := &run{outcome: map[string]string{}, skipMsg: map[string]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &r.header) != nil {
		return nil, fmt.Errorf("%s: no run header", name)
	}
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Test == "" {
			continue // a line that is not a test's event (a build error)
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "pass", "fail", "skip":
			r.outcome[key] = e.Action
		case "output":
			if msg := strings.TrimSpace(e.Output); !strings.HasPrefix(msg, "---") && !strings.HasPrefix(msg, "===") && msg != "" {
				r.skipMsg[key] = msg // the last line before the end: a skip's reason
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return r, nil
}

func check(files []string) error {
	var runs []*run
	for _, name := range files {
		r, err := readRun(name)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	fmt.Println()
	fmt.Println("| run | tool | passed | failed | skipped |")
	fmt.Println("| --- | --- | ---: | ---: | ---: |")
	all := map[string]bool{}
	for _, r := range runs {
		n := map[string]int{}
		for key, o := range r.outcome {
			n[o]++
			all[key] = true
		}
		label := r.Label
		if r.Live {
			label += " (live)"
		}
		fmt.Printf("| %s | %s | %d | %d | %d |\n", label, r.Version, n["pass"], n["fail"], n["skip"])
	}

	// never: skipped in every run, with at least one run that was not live;
	// liveOnly: skipped in every run, all of them live.
	var never, liveOnly []string
	for key := range all {
		ran, local := false, false
		for _, r := range runs {
			o, ok := r.outcome[key]
			if ok && o != "skip" {
				ran = true
			}
			if ok && !r.Live {
				local = true
			}
		}
		switch {
		case ran:
		case local:
			never = append(never, key)
		default:
			liveOnly = append(liveOnly, key)
		}
	}
	never, elsewhere := leftElsewhere(runs, never)
	slices.Sort(never)
	slices.Sort(liveOnly)
	slices.Sort(elsewhere)
	if len(liveOnly) > 0 {
		fmt.Println("\nSkipped in every run, all of them live (tests that need the local API skip there):")
		printSkipped(runs, liveOnly)
	}
	if len(elsewhere) > 0 {
		fmt.Println("\nSkipped in every run, left to " + elsewhereMark + " (not run here, not passed):")
		printSkipped(runs, elsewhere)
	}
	if len(never) == 0 {
		if len(liveOnly)+len(elsewhere) == 0 {
			fmt.Println("\nEvery test ran in at least one of these runs.")
		}
		return nil
	}
	fmt.Println("\nSkipped in every run:")
	printSkipped(runs, never)
	return fmt.Errorf("%d test(s) skipped in every run: what they test ran nowhere", len(never))
}

// elsewhereMark, in a skip's reason, says another make target runs the
// test: one that needs what a clean clone cannot build.
const elsewhereMark = "make check-official"

// leftElsewhere splits the tests of keys into those no run excused and
// those a run skipped saying elsewhereMark runs them.
func leftElsewhere(runs []*run, keys []string) (never, elsewhere []string) {
	for _, key := range keys {
		excused := false
		for _, r := range runs {
			if r.outcome[key] == "skip" && strings.Contains(r.skipMsg[key], elsewhereMark) {
				excused = true
			}
		}
		if excused {
			elsewhere = append(elsewhere, key)
		} else {
			never = append(never, key)
		}
	}
	return never, elsewhere
}

// printSkipped prints each test of keys with the reason a run gave for
// skipping it.
func printSkipped(runs []*run, keys []string) {
	for _, key := range keys {
		reason := ""
		for _, r := range runs {
			if msg, ok := r.skipMsg[key]; ok && r.outcome[key] == "skip" {
				reason = msg
			}
		}
		fmt.Printf("  %s: %s\n", strings.TrimPrefix(key, "github.com/pipelinecfg/terraform-provider-pipeline/"), reason)
	}
}
