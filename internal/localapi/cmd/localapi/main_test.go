package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCommand builds the command, starts it on a free port with a database
// file and the example plugin catalog, makes requests, and stops it with
// SIGINT: it must exit 0 and print its counters.
func TestCommand(t *testing.T) {
	bin, db := buildCommand(t)
	url := startCommand(t, bin, "-db", db, "-plugins", "../../testdata/plugins.json", "-debug-routes", "-print-counters")

	// The -plugins catalog replaced the seeded one.
	status, body := request(t, "POST", url.base+"/api/projects/1/pipeline_import_apps_configs/", `{"plugin": 20, "order": 1}`)
	if status != 201 || !strings.Contains(body, `"name":"Warehouse Import"`) {
		t.Fatalf("create: %d %s", status, body)
	}
	if status, body = request(t, "POST", url.base+"/api/projects/1/pipeline_import_apps_configs/", `{"plugin": 3, "order": 1}`); status != 400 {
		t.Fatalf("seeded plugin 3 still exists: %d %s", status, body)
	}
	if status, body = request(t, "GET", url.base+"/_localapi/counters", ""); status != 200 || !strings.Contains(body, `"create":2`) {
		t.Fatalf("counters: %d %s", status, body)
	}
	// A plugin upgraded through the debug route: renamed, its description gone.
	if status, body = request(t, "PUT", url.base+"/_localapi/plugins/20", `{"name": "Warehouse Import 2", "description": null,
		"capabilities": {"scheduled_tasks": ["runEveryHour"]}}`); status != 204 {
		t.Fatalf("upgrading plugin 20: %d %s", status, body)
	}
	if status, body = request(t, "GET", url.base+"/api/projects/1/pipeline_import_apps_configs/1/", ""); status != 200 ||
		!strings.Contains(body, `"name":"Warehouse Import 2"`) || !strings.Contains(body, `"description":null`) {
		t.Fatalf("after the upgrade: %d %s", status, body)
	}
	out := url.stop(t)
	if !strings.Contains(out, "counters:") || !strings.Contains(out, "create") {
		t.Errorf("no counters printed on exit:\n%s", out)
	}

	// The record survives a restart on the same file.
	url = startCommand(t, bin, "-db", db, "-plugins", "../../testdata/plugins.json")
	if status, body = request(t, "GET", url.base+"/api/projects/1/pipeline_import_apps_configs/1/", ""); status != 200 {
		t.Fatalf("after restart: %d %s", status, body)
	}
	url.stop(t)
}

// buildCommand builds the command into a temporary directory and names a
// database file beside it; -short skips the test.
func buildCommand(t *testing.T) (bin, db string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	dir := t.TempDir()
	bin = filepath.Join(dir, "localapi")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".") //nolint:gosec // G204: bin is the test's own temp path
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin, filepath.Join(dir, "local.db")
}

// TestCommandGenerations: a -db file seeded at generation 1 is served by
// the command restarted with -generation 2 (as a live-mode test does), and
// with -generation 3.
func TestCommandGenerations(t *testing.T) {
	bin, db := buildCommand(t)
	coll := "/api/projects/1/pipeline_transformation_configs/"

	url := startCommand(t, bin, "-db", db)
	status, body := request(t, "POST", url.base+coll, `{"plugin": 1, "order": 1, "enabled": true, "filters": {"events": [{"type": "events"}]}}`)
	if status != 201 || !strings.Contains(body, `"id":1,`) || !strings.Contains(body, `"filters":`) {
		t.Fatalf("create at generation 1: %d %s", status, body)
	}
	if out := url.stop(t); !strings.Contains(out, "version B, generation 1\n") {
		t.Errorf("stdout does not name version B, generation 1:\n%s", out)
	}

	url = startCommand(t, bin, "-db", db, "-generation", "2", "-debug-routes")
	if status, body = request(t, "GET", url.base+coll+"1/", ""); status != 200 || strings.Contains(body, `"filters"`) {
		t.Errorf("retrieve at generation 2: %d %s", status, body)
	}
	if status, body = request(t, "POST", url.base+coll, `{"plugin": 1, "order": 2, "enabled": false}`); status != 201 || !strings.Contains(body, `"id":null`) {
		t.Errorf("create at generation 2: %d %s", status, body)
	}
	if status, body = request(t, "GET", url.base+"/_localapi/hog-functions", ""); status != 200 || strings.Count(body, `"template_id"`) != 1 {
		t.Errorf("hog functions: %d %s", status, body)
	}
	if status, body = request(t, "POST", url.base+coll+"1/job/", `{"job": {"type": "x"}}`); status != 404 {
		t.Errorf("job at generation 2: %d %s", status, body)
	}
	if status, body = request(t, "POST", url.base+coll+"1/migrate/", ""); status != 400 || !strings.Contains(body, "No migration available") {
		t.Errorf("migrate: %d %s", status, body)
	}
	if status, body = request(t, "POST", url.base+"/_localapi/bulk-migrate", `{"project": 1}`); status != 200 ||
		!strings.Contains(body, `"source_config_id":1,`) || !strings.Contains(body, `"template_id":"plugin-posthog-plugin-geoip"`) {
		t.Errorf("bulk migration: %d %s", status, body)
	}
	if status, body = request(t, "GET", url.base+"/_localapi/generation", ""); status != 200 || body != `{"version":"E","generation":2,"today":false}` {
		t.Errorf("generation route: %d %s", status, body)
	}
	url.stop(t)

	url = startCommand(t, bin, "-db", db, "-generation", "3")
	if status, body = request(t, "GET", url.base+coll, ""); status != 404 || !strings.Contains(body, `"code":"not_found"`) {
		t.Errorf("list at generation 3: %d %s", status, body)
	}
	url.stop(t)
}

// TestCommandToday: -today serves generation 2 as the service is today;
// with -generation 1 it starts at generation 1, so a -db file can be
// filled first, as a live-mode test of today's service does.
func TestCommandToday(t *testing.T) {
	bin, db := buildCommand(t)
	coll := "/api/projects/1/pipeline_transformation_configs/"
	url := startCommand(t, bin, "-db", db, "-today", "-generation", "1", "-debug-routes")
	if status, body := request(t, "GET", url.base+"/_localapi/generation", ""); status != 200 || body != `{"version":"B","generation":1,"today":true}` {
		t.Errorf("generation route: %d %s", status, body)
	}
	if status, body := request(t, "POST", url.base+coll, `{"plugin": 1, "order": 1, "enabled": true}`); status != 201 || !strings.Contains(body, `"id":1,`) {
		t.Fatalf("create at generation 1: %d %s", status, body)
	}
	if out := url.stop(t); !strings.Contains(out, "version B, generation 1 (today's service once moved to generation 2)\n") {
		t.Errorf("stdout does not name the mode:\n%s", out)
	}

	url = startCommand(t, bin, "-db", db, "-today", "-debug-routes")
	if status, body := request(t, "GET", url.base+"/_localapi/generation", ""); status != 200 || body != `{"version":"E2026","generation":2,"today":true}` {
		t.Errorf("generation route: %d %s", status, body)
	}
	if status, body := request(t, "GET", url.base+coll+"1/", ""); status != 200 || strings.Contains(body, "delivery_rate_24h") {
		t.Errorf("retrieve: %d %s", status, body)
	}
	if status, body := request(t, "POST", url.base+coll, `{"plugin": 1, "order": 2}`); status != 400 || !strings.Contains(body, "Plugin creation is no longer possible.") {
		t.Errorf("JSON create: %d %s", status, body)
	}
	if status, body := request(t, "PATCH", url.base+coll+"rearrange/", `{"orders": {}}`); status != 403 ||
		!strings.Contains(body, "This action does not support personal API key access") {
		t.Errorf("rearrange with the legacy key: %d %s", status, body)
	}
	if status, body := request(t, "POST", url.base+coll+"1/job/", `{}`); status != 404 || !strings.Contains(body, "Endpoint not found.") {
		t.Errorf("job: %d %s", status, body)
	}
	if out := url.stop(t); !strings.Contains(out, "version E2026, generation 2, as the service is today\n") || !strings.Contains(out, `"*" on today's service`) {
		t.Errorf("stdout does not name the mode:\n%s", out)
	}
}

// TestCommandVersion: -version serves a version by name, here C, the
// seed's without filters and with jobs, on a -db file seeded at B, its
// next config id from -first-config-id; the debug route moves it to D,
// which has no job; -version leaves no room for -generation or -today.
func TestCommandVersion(t *testing.T) {
	bin, db := buildCommand(t)
	coll := "/api/projects/1/pipeline_transformation_configs/"
	url := startCommand(t, bin, "-db", db)
	if status, body := request(t, "POST", url.base+coll, `{"plugin": 1, "order": 1, "enabled": true}`); status != 201 {
		t.Fatalf("create at B: %d %s", status, body)
	}
	url.stop(t)

	url = startCommand(t, bin, "-db", db, "-version", "c", "-debug-routes", "-first-config-id", "40")
	if status, body := request(t, "GET", url.base+"/_localapi/generation", ""); status != 200 || body != `{"version":"C","generation":1,"today":false}` {
		t.Errorf("generation route: %d %s", status, body)
	}
	if status, body := request(t, "GET", url.base+coll+"1/", ""); status != 200 || strings.Contains(body, `"filters"`) {
		t.Errorf("retrieve at C: %d %s", status, body)
	}
	if status, body := request(t, "POST", url.base+coll+"1/job/", `{"job": {}}`); status != 400 || !strings.Contains(body, "The job type must be specified!") {
		t.Errorf("job at C: %d %s", status, body)
	}
	if status, body := request(t, "POST", url.base+coll, `{"plugin": 2, "order": 2}`); status != 201 || !strings.Contains(body, `"id":40,`) {
		t.Errorf("create at C with -first-config-id 40: %d %s", status, body)
	}
	if status, body := request(t, "PUT", url.base+"/_localapi/generation", `{"version": "D"}`); status != 204 {
		t.Errorf("PUT version D: %d %s", status, body)
	}
	if status, body := request(t, "POST", url.base+coll+"1/job/", `{"job": {}}`); status != 404 {
		t.Errorf("job at D: %d %s", status, body)
	}
	if status, body := request(t, "PUT", url.base+"/_localapi/generation", `{"version": "G"}`); status != 400 || !strings.Contains(body, `"attr":"version"`) {
		t.Errorf("PUT version G: %d %s", status, body)
	}
	if out := url.stop(t); !strings.Contains(out, "version C, generation 1\n") {
		t.Errorf("stdout does not name version C:\n%s", out)
	}
}

type running struct {
	base string
	cmd  *exec.Cmd
	out  *bytes.Buffer
	done chan struct{}
	// readErr is the error reading stdout after the first line; set before
	// done is closed.
	readErr error
}

func startCommand(t *testing.T, bin string, args ...string) *running {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...) //nolint:gosec // G204: runs the binary the test just built
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	r := bufio.NewReader(stdout)
	lineCh := make(chan string, 1)
	go func() {
		line, _ := r.ReadString('\n')
		lineCh <- line
	}()
	var first string
	select {
	case first = <-lineCh:
	case <-time.After(30 * time.Second):
		t.Fatal("no first line within 30s")
	}
	base, ok := strings.CutPrefix(strings.TrimSpace(first), "listening ")
	if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") || strings.HasSuffix(base, ":0") {
		t.Fatalf("first line %q, want listening http://127.0.0.1:PORT", first)
	}
	run := &running{base: base, cmd: cmd, out: new(bytes.Buffer), done: make(chan struct{})}
	go func() {
		_, run.readErr = io.Copy(run.out, r)
		close(run.done)
	}()
	return run
}

// stop sends SIGINT and checks the command exits 0; it returns the rest of
// its stdout.
func (r *running) stop(t *testing.T) string {
	t.Helper()
	if err := r.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() {
		<-r.done
		exited <- r.cmd.Wait()
	}()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after SIGINT: %v\n%s", err, r.out)
		}
		if r.readErr != nil {
			t.Fatalf("reading stdout: %v", r.readErr)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no exit within 15s of SIGINT")
	}
	out := r.out.String()
	if !strings.Contains(out, "phx_local_full") || !strings.HasSuffix(out, "stopped\n") {
		t.Errorf("stdout after the first line:\n%s", out)
	}
	return out
}

func request(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer phx_local_full")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestRunRejectsBadFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	for _, args := range [][]string{{"-nope"}, {"extra"}, {"-plugins", "/does/not/exist.json"}, {"-addr", "256.0.0.1:x"},
		{"-generation", "0"}, {"-generation", "4"}, {"-generation", "-1"}, {"-generation", "two"},
		{"-version", "A"}, {"-version", "E2025"}, {"-version", "C", "-generation", "1"}, {"-version", "D", "-today"},
		{"-first-config-id", "-1"}} {
		if err := run(args, &stdout, &stderr); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}
