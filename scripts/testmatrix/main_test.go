package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRun writes a stream file as `testmatrix stream` leaves it.
func writeRun(t *testing.T, label string, events ...string) string {
	t.Helper()
	return writeRunHeader(t, label, `{"label":"`+label+`","tool":"terraform","version":"Terraform v1.0.0"}`, events...)
}

// writeLiveRun writes the stream file of a run against a live instance.
func writeLiveRun(t *testing.T, label string, events ...string) string {
	t.Helper()
	return writeRunHeader(t, label, `{"label":"`+label+`","tool":"terraform","version":"Terraform v1.0.0","live":true}`, events...)
}

func writeRunHeader(t *testing.T, label, header string, events ...string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), label+".json")
	content := header + "\n" + strings.Join(events, "\n") + "\n"
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return name
}

const (
	passA  = `{"Action":"pass","Package":"p","Test":"TestA"}`
	skipB  = `{"Action":"skip","Package":"p","Test":"TestB"}`
	passB  = `{"Action":"pass","Package":"p","Test":"TestB"}`
	outB   = `{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:9: needs Terraform 1.14.0 or later\n"}`
	noJSON = `# a build error line`
)

func TestCheck(t *testing.T) {
	oldest := writeRun(t, "oldest", passA, noJSON, outB, skipB)
	newest := writeRun(t, "newest", passB)
	if err := check([]string{oldest, newest}); err != nil {
		t.Errorf("a test skipped in one run and passed in another: %v", err)
	}
	err := check([]string{oldest})
	if err == nil || !strings.Contains(err.Error(), "1 test(s) skipped in every run") {
		t.Errorf("a test skipped in the only run: got %v, want the suite to fail", err)
	}
}

// TestCheckLive: a test skipped in every run is excused only when every
// run was live (where tests that need the local API skip by design), as
// each run's header records; the environment check runs in does not
// matter.
func TestCheckLive(t *testing.T) {
	t.Setenv("POSTHOG_HOST", "http://127.0.0.1:1")
	local := writeRun(t, "oldest", passA, outB, skipB)
	live := writeLiveRun(t, "live-gen2", passA, outB, skipB)
	err := check([]string{local, live})
	if err == nil || !strings.Contains(err.Error(), "1 test(s) skipped in every run") {
		t.Errorf("a test skipped in a local run and a live one: got %v, want the suite to fail", err)
	}
	if err := check([]string{local}); err == nil {
		t.Errorf("a test skipped in the only run, which was not live, with POSTHOG_HOST set where check runs: want the suite to fail")
	}
	if err := check([]string{live, writeLiveRun(t, "newest", passA, skipB)}); err != nil {
		t.Errorf("a test skipped only in live runs: %v", err)
	}
	r, err := readRun(live)
	if err != nil || !r.Live {
		t.Errorf("readRun of a live run: %+v, %v", r, err)
	}
}

func TestReadRunSkipReason(t *testing.T) {
	r, err := readRun(writeRun(t, "oldest", outB, skipB))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.skipMsg["p TestB"]; got != "b_test.go:9: needs Terraform 1.14.0 or later" {
		t.Errorf("skip reason %q", got)
	}
	if r.outcome["p TestB"] != "skip" || r.Version != "Terraform v1.0.0" {
		t.Errorf("run %+v", r)
	}
}

// TestCheckElsewhere: a test every run skipped is excused when its skip
// says make check-official runs it, and is listed; any other reason still
// fails the suite.
func TestCheckElsewhere(t *testing.T) {
	outC := `{"Action":"output","Package":"p","Test":"TestC","Output":"    c_test.go:5: the binary is not set: run make check-official POSTHOG_PROVIDER=...\n"}`
	skipC := `{"Action":"skip","Package":"p","Test":"TestC"}`
	if err := check([]string{writeRun(t, "oldest", passA, outC, skipC), writeRun(t, "newest", passA, skipC)}); err != nil {
		t.Errorf("a test skipped in every run, left to make check-official: %v", err)
	}
	err := check([]string{writeRun(t, "oldest", passA, outC, skipC, outB, skipB)})
	if err == nil || !strings.Contains(err.Error(), "1 test(s) skipped in every run") {
		t.Errorf("a test left to make check-official beside one skipped for another reason: got %v, want the second to fail the suite", err)
	}
}
