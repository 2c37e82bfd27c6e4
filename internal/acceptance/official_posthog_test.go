package acceptance

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// The stand-in of the official PostHog provider against the real one: the
// same scenarios (postHogScenarios) run with each, against local APIs of
// their own, and what Terraform and the service show after every step
// (observed) must be the same. The real provider's observations are kept in
// officialRecording, so that a run without its binary still checks the
// stand-in against them.

// envRecordOfficialPostHog, set with the real binary given, writes the
// real provider's observations to officialRecording.
const envRecordOfficialPostHog = "PIPELINE_OFFICIAL_POSTHOG_RECORD"

// officialRecording holds the official provider's observations.
const officialRecording = "testdata/official-posthog.json"

// officialRecord is what officialRecording holds.
type officialRecord struct {
	// Schema is the provider's and posthog_hog_function's (postHogSchema).
	Schema json.RawMessage `json:"schema"`
	// Scenarios are the observations of each step, by scenario.
	Scenarios map[string][]observed `json:"scenarios"`
}

// TestAccOfficialPostHog_standIn runs the scenarios with the stand-in and
// checks each step against what the official provider did there when it
// was recorded.
func TestAccOfficialPostHog_standIn(t *testing.T) {
	t.Parallel()
	acctest.SkipUnlessAcc(t)
	recorded := readOfficialRecording(t)
	t.Run("schema", func(t *testing.T) {
		t.Parallel()
		compareSchemas(t, "the official provider (recorded)", recorded.Schema, "the stand-in", postHogSchema(t, standInPostHog(t)))
	})
	for _, sc := range postHogScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			want, ok := recorded.Scenarios[sc.name]
			if !ok {
				t.Fatalf("%s has no recording of scenario %q: record it with make check-official RECORD=1", officialRecording, sc.name)
			}
			compareRuns(t, "the official provider (recorded)", want, "the stand-in", runScenario(t, sc, standInPostHog(t)))
		})
	}
}

// TestAccOfficialPostHog_real runs the scenarios with the official
// provider's binary (envOfficialPostHog) and with the stand-in, and fails on
// any difference; and on a difference from the recording, unless
// envRecordOfficialPostHog asks to write it anew.
func TestAccOfficialPostHog_real(t *testing.T) {
	acctest.SkipUnlessAcc(t)
	official, ok := realPostHog(t)
	if !ok {
		t.Skipf("%s is not set, so the official provider did not run: run make check-official "+
			"POSTHOG_PROVIDER=/path/to/terraform-provider-posthog (CONTRIBUTING.md); "+
			"TestAccOfficialPostHog_standIn checked the stand-in against its recording only", envOfficialPostHog)
	}
	t.Parallel()
	var mu sync.Mutex
	now := officialRecord{Scenarios: map[string][]observed{}}
	t.Run("scenarios", func(t *testing.T) {
		t.Run("schema", func(t *testing.T) {
			t.Parallel()
			schema := postHogSchema(t, official)
			mu.Lock()
			now.Schema = schema
			mu.Unlock()
			compareSchemas(t, "the official provider", schema, "the stand-in", postHogSchema(t, standInPostHog(t)))
		})
		for _, sc := range postHogScenarios() {
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				got := runScenario(t, sc, official)
				mu.Lock()
				now.Scenarios[sc.name] = got
				mu.Unlock()
				compareRuns(t, "the official provider", got, "the stand-in", runScenario(t, sc, standInPostHog(t)))
			})
		}
	})
	if len(now.Scenarios) != len(postHogScenarios()) || now.Schema == nil {
		t.Fatal("a scenario did not finish with the official provider: nothing to compare with the recording")
	}
	if os.Getenv(envRecordOfficialPostHog) != "" {
		writeOfficialRecording(t, now)
		return
	}
	recorded := readOfficialRecording(t)
	t.Run("recording/schema", func(t *testing.T) {
		compareSchemas(t, "the recording", recorded.Schema, "the official provider now", now.Schema)
	})
	for _, sc := range postHogScenarios() {
		t.Run("recording/"+sc.name, func(t *testing.T) {
			compareRuns(t, "the recording", recorded.Scenarios[sc.name], "the official provider now", now.Scenarios[sc.name])
			if t.Failed() {
				t.Logf("if the local API changed, record anew: make check-official POSTHOG_PROVIDER=... RECORD=1")
			}
		})
	}
}

func readOfficialRecording(t *testing.T) officialRecord {
	t.Helper()
	raw, err := os.ReadFile(officialRecording)
	if errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no %s: record it with make check-official POSTHOG_PROVIDER=... RECORD=1", officialRecording)
	}
	if err != nil {
		t.Fatal(err)
	}
	var rec officialRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatalf("%s: %v", officialRecording, err)
	}
	return rec
}

func writeOfficialRecording(t *testing.T, rec officialRecord) {
	t.Helper()
	raw, err := readableJSON(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(officialRecording, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded the official provider's observations in %s", officialRecording)
}

// compareRuns fails t on every step where run b differs from run a.
func compareRuns(t *testing.T, aName string, a []observed, bName string, b []observed) {
	t.Helper()
	for i := 0; i < len(a) || i < len(b); i++ {
		switch {
		case i >= len(a):
			t.Errorf("step %q: %s has it, %s does not", b[i].Step, bName, aName)
		case i >= len(b):
			t.Errorf("step %q: %s has it, %s does not", a[i].Step, aName, bName)
		default:
			for _, d := range differences(a[i], b[i]) {
				t.Errorf("step %q: %s\n%s: %s\n%s: %s", a[i].Step, d.what, aName, d.a, bName, d.b)
			}
		}
	}
}

// compareSchemas fails t when schemas a and b differ (spacing aside: the
// recording is indented anew).
func compareSchemas(t *testing.T, aName string, a json.RawMessage, bName string, b json.RawMessage) {
	t.Helper()
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil || !bytes.Equal(ca.Bytes(), cb.Bytes()) {
		t.Errorf("the schemas differ\n%s: %s\n%s: %s", aName, a, bName, b)
	}
}

// difference is one part of two observations that differs.
type difference struct{ what, a, b string }

// differences are the parts of a and b that differ.
func differences(a, b observed) []difference {
	parts := func(o observed) map[string]any {
		return map[string]any{"step": o.Step, "command errors": o.Errors, "next plan": o.Plan, "state": o.State,
			"hog functions on the service": o.Service, "hog function requests": o.Requests}
	}
	pa, pb := parts(a), parts(b)
	var out []difference
	for _, what := range []string{"step", "command errors", "next plan", "state", "hog functions on the service", "hog function requests"} {
		ja, _ := readableJSON(pa[what])
		jb, _ := readableJSON(pb[what])
		if string(ja) != string(jb) {
			out = append(out, difference{what, string(ja), string(jb)})
		}
	}
	return out
}

// wantNoErrors is a step check: every command and the next plan went
// without an error.
func wantNoErrors(t *testing.T, o observed) {
	t.Helper()
	if len(o.Errors) != 0 {
		t.Errorf("step %q: errors %q, want none", o.Step, o.Errors)
	}
	for _, c := range o.Plan {
		if strings.HasPrefix(c, "error") {
			t.Errorf("step %q: the next plan failed: %s", o.Step, c)
		}
	}
}

// readableJSON is v as indented JSON, with <, > and & as they are.
func readableJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(v)
	return b.Bytes(), err
}
