package createonce

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// recoveryAPI is a local API of the test's own behind decide, and a client
// of it with short retry waits.
type recoveryAPI struct {
	srv *localapi.Server
	c   *client.Client
}

func newRecoveryAPI(t *testing.T, decide func(*http.Request) localapitest.Loss) *recoveryAPI {
	t.Helper()
	srv, err := localapi.New(localapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(localapitest.LoseAnswers(srv, decide))
	t.Cleanup(func() { ts.Close(); _ = srv.Close() })
	c, err := client.New(client.Config{Host: ts.URL, APIKey: localapi.KeyFull, MaxRetries: 3,
		RetryWaitMin: time.Millisecond, RetryWaitMax: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return &recoveryAPI{srv: srv, c: c}
}

func keep(*http.Request) localapitest.Loss { return localapitest.Keep }

// run is one provider process of a working directory whose journal is dir.
func (a *recoveryAPI) run(dir string) *framework.ProviderData {
	return &framework.ProviderData{Client: a.c, JournalDir: dir}
}

// active returns the ids of the active configs of project 1 in both
// collections.
func (a *recoveryAPI) active(t *testing.T) []int64 {
	t.Helper()
	var out []int64
	for _, k := range framework.Kinds() {
		recs, err := a.c.ListAll(context.Background(), "1", k.Collection)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if !r.Deleted {
				out = append(out, r.ID)
			}
		}
	}
	return out
}

// losePosts loses the answers of the POSTs numbered in lose (1-based).
func losePosts(loss localapitest.Loss, lose ...int) (func(*http.Request) localapitest.Loss, *atomic.Int32) {
	var n atomic.Int32
	return func(r *http.Request) localapitest.Loss {
		if r.Method != http.MethodPost {
			return localapitest.Keep
		}
		i := int(n.Add(1))
		for _, l := range lose {
			if l == i {
				return loss
			}
		}
		return localapitest.Keep
	}, &n
}

func geoIP(name string) Request {
	return Request{Input: client.RecordInput{Plugin: client.Some(int64(1)), Order: client.Some(int64(0)), Name: client.Some(name)},
		Holds: func(rec *client.Record, _ bool) bool {
			// The settings these tests send, as the local API stores them.
			return !rec.Deleted && !rec.Enabled && rec.Plugin == 1 && rec.Order == 0 && rec.Name != nil && *rec.Name == name
		}}
}

func create(t *testing.T, meta *framework.ProviderData, req Request) (*client.Record, diag.Diagnostics) {
	t.Helper()
	var diags diag.Diagnostics
	rec, err := Create(context.Background(), meta, framework.Transformation, "1", req, &diags)
	if err != nil {
		t.Fatal(err)
	}
	return rec, diags
}

func adopted(diags diag.Diagnostics) bool {
	for _, d := range diags.Warnings() {
		if strings.HasPrefix(d.Summary(), "Adopted ") {
			return true
		}
	}
	return false
}

// TestCreate_lostAnswer: a create whose answer is lost is never sent
// again; the error names the config the service made, or says none was.
func TestCreate_lostAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		loss   localapitest.Loss
		stored bool
	}{
		{"502 after the create", localapitest.Lose502, true},
		{"504 after the create", localapitest.Lose504, true},
		{"reset after the create", localapitest.LoseReset, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			decide, posts := losePosts(tc.loss, 2)
			a := newRecoveryAPI(t, decide)
			create(t, a.run(""), geoIP("another, alike but older")) // not named: created before
			_, err := Create(context.Background(), a.run(""), framework.Transformation, "1", geoIP("lost"), &diag.Diagnostics{})
			if err == nil || !client.MayHaveApplied(err) {
				t.Fatalf("got %v, want the lost answer", err)
			}
			active := a.active(t)
			if len(active) != 2 {
				t.Fatalf("active configs %v, want the older one and the lost create's", active)
			}
			if want := "The service has transformation config " + itoa(active[1]) + ","; !strings.Contains(err.Error(), want) {
				t.Errorf("the error does not name the config made (%q):\n%v", want, err)
			}
			// Another state may hold it (another directory applying the
			// same configuration): import only what no state holds.
			if !strings.Contains(err.Error(), "a config that none of them holds is this create's") ||
				strings.Contains(err.Error(), "If that is this one") {
				t.Errorf("the error advises importing a config another state may hold:\n%v", err)
			}
			if got := posts.Load(); got != 2 {
				t.Errorf("%d POSTs, want 2: the lost one was sent again", got)
			}
		})
	}
}

// TestCreate_unavailable: a create answered 502 or 503 before the service
// stored anything is sent again once a list shows nothing from it (up to
// max_retries more times); one that failed otherwise (a 504, a reset) may
// still be at work on the service and is not: the error says nothing was
// stored so far.
func TestCreate_unavailable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		faults localapi.Faults
		fails  int // POSTs that fail
		posts  int64
		ok     bool
	}{
		{"502 twice", localapi.Faults{Rate502: 1}, 2, 3, true},
		{"503 always", localapi.Faults{Rate503: 1}, 99, 4, false},
		{"reset", localapi.Faults{ResetRate: 1}, 1, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var posts atomic.Int32
			var srv *localapi.Server
			a := newRecoveryAPI(t, func(req *http.Request) localapitest.Loss {
				// Only the POSTs fail, before the store; the lists work.
				if req.Method == http.MethodPost && int(posts.Add(1)) <= tc.fails {
					srv.SetFaults(tc.faults)
				} else {
					srv.SetFaults(localapi.Faults{})
				}
				return localapitest.Keep
			})
			srv = a.srv
			_, err := Create(context.Background(), a.run(""), framework.Transformation, "1", geoIP("unavailable"), &diag.Diagnostics{})
			if tc.ok != (err == nil) {
				t.Fatalf("got %v, want success %v", err, tc.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "applying again creates it") {
				t.Errorf("the error does not say nothing was made: %v", err)
			}
			if n := srv.Counters()["create"]; n != tc.posts {
				t.Errorf("%d creates sent, want %d", n, tc.posts)
			}
		})
	}
}

// TestCreate_unsaved: a create the service answers without saving
// (generation 2 made a hog function) is one POST and leaves no open entry.
func TestCreate_unsaved(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, keep)
	if err := a.srv.SetGeneration(localapi.Generation2); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, err := Create(context.Background(), a.run(dir), framework.Transformation, "1", geoIP("unsaved"), &diag.Diagnostics{})
	if !client.IsUnsaved(err) {
		t.Fatalf("got %v, want the unsaved create", err)
	}
	counters := a.srv.Counters()
	if counters["create"] != 1 || counters["total"] != 1 {
		t.Errorf("counters %v, want the one POST and nothing else", counters)
	}
	Release(dir, false) // as if killed: the entry must be settled anyway
	if open := openEntries(t, dir); len(open) != 0 {
		t.Errorf("open entries %+v after an unsaved create, want none", open)
	}
}

// openEntries reads every open entry of dir's files.
func openEntries(t *testing.T, dir string) []*entry {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	var open []*entry
	for _, name := range files {
		f, err := os.Open(name) //nolint:gosec // a test file
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, readOpen(f, name)...)
		_ = f.Close()
	}
	return open
}

// TestJournal_killedRunAdopted: the config a killed run created (its answer
// came, Terraform never stored it) is adopted by the next create of the
// same request, with a warning, and its settings are sent again.
func TestJournal_killedRunAdopted(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, keep)
	dir := t.TempDir()
	req := geoIP("orphan")
	req.Input.Settings = client.Some(json.RawMessage(`{"locale":"en"}`))
	req.Settings = req.Input.Settings
	first, _ := create(t, a.run(dir), req)
	Release(dir, false) // killed
	again, diags := create(t, a.run(dir), req)
	if again.ID != first.ID || !adopted(diags) {
		t.Fatalf("got config %d (warnings %v), want %d adopted", again.ID, diags, first.ID)
	}
	if n := a.srv.Counters()["create"]; n != 1 {
		t.Errorf("%d creates, want 1", n)
	}
	Release(dir, true) // a finished run: the adopted config is in the state
	// Settled: a third create of the same request makes a config.
	third, diags := create(t, a.run(dir), req)
	if third.ID == first.ID || adopted(diags) {
		t.Errorf("the entry was adopted twice: config %d", third.ID)
	}
}

// TestJournal_killedBeforeSettingsAdopted: a killed run whose create sent
// its settings after the POST, and was killed between the two, left a
// config without settings; the next create of the same request, which
// sends them with the POST, adopts it and sends them.
func TestJournal_killedBeforeSettingsAdopted(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, keep)
	dir := t.TempDir()
	req := geoIP("settings after")
	req.Settings = client.Some(json.RawMessage(`{"locale":"en"}`))
	first, _ := create(t, a.run(dir), req) // the PATCH of its settings never came
	Release(dir, false)                    // killed
	withSettings := req
	withSettings.Input.Settings = req.Settings
	again, diags := create(t, a.run(dir), withSettings)
	if again.ID != first.ID || !adopted(diags) {
		t.Fatalf("got config %d (warnings %v), want %d adopted", again.ID, diags, first.ID)
	}
	stored, err := a.srv.StoredConfig(1, first.ID)
	if err != nil || !strings.Contains(string(stored), `"en"`) {
		t.Errorf("the adopted config holds %s (%v), want its settings sent", stored, err)
	}
}

// TestJournal_neverTakesAnothers: the journal hands over nothing that a
// finished run made, that a resource of the state holds, that differs in
// what was sent, or that changed on the service since.
func TestJournal_neverTakesAnothers(t *testing.T) {
	t.Parallel()
	req := geoIP("alike")
	req.Input.Settings = client.Some(json.RawMessage(`{"locale":"en","api_key":"s1"}`))
	req.Settings = req.Input.Settings
	req.SecretKeys = []string{"api_key"}
	for _, tc := range []struct {
		name  string
		after func(t *testing.T, a *recoveryAPI, dir string, id int64)
		next  Request
	}{
		{"finished run", func(_ *testing.T, _ *recoveryAPI, dir string, _ int64) { Release(dir, true) }, req},
		{"held by the state", func(t *testing.T, a *recoveryAPI, dir string, id int64) {
			Release(dir, false)
			journalOf(a.run(dir), dir).confirm(context.Background(), a.c.Host(), id)
		}, req},
		{"other settings", func(_ *testing.T, _ *recoveryAPI, dir string, _ int64) { Release(dir, false) }, func() Request {
			r := req
			r.Input.Settings = client.Some(json.RawMessage(`{"locale":"de","api_key":"s1"}`))
			r.Settings = r.Input.Settings
			return r
		}()},
		{"changed on the service", func(t *testing.T, a *recoveryAPI, dir string, id int64) {
			Release(dir, false)
			if _, err := a.c.Update(context.Background(), "1", framework.Transformation.Collection, id,
				client.RecordInput{Name: client.Some("renamed")}); err != nil {
				t.Fatal(err)
			}
		}, req},
		{"another workspace", func(_ *testing.T, _ *recoveryAPI, dir string, _ int64) { Release(dir, false) }, req},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newRecoveryAPI(t, keep)
			dir := t.TempDir()
			first, _ := create(t, a.run(dir), req)
			tc.after(t, a, dir, first.ID)
			nextDir := dir
			if tc.name == "another workspace" {
				nextDir = t.TempDir()
			}
			next, diags := create(t, a.run(nextDir), tc.next)
			if next.ID == first.ID || adopted(diags) {
				t.Errorf("config %d was adopted", first.ID)
			}
		})
	}
}

// TestJournal_secretValuesNotKept: the journal holds no secret value.
func TestJournal_secretValuesNotKept(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, keep)
	dir := t.TempDir()
	req := geoIP("secret")
	req.Input.Settings = client.Some(json.RawMessage(`{"api_key":"hunter2-hunter2"}`))
	req.Settings = req.Input.Settings
	req.SecretKeys = []string{"api_key"}
	create(t, a.run(dir), req)
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for _, f := range files {
		b, _ := os.ReadFile(f) //nolint:gosec // a test file
		if strings.Contains(string(b), "hunter2") {
			t.Errorf("the journal holds the secret: %s", b)
		}
	}
	// Another secret value is the same request: the adoption sends it.
	Release(dir, false)
	other := req
	other.Input.Settings = client.Some(json.RawMessage(`{"api_key":"other"}`))
	other.Settings = other.Input.Settings
	if _, diags := create(t, a.run(dir), other); !adopted(diags) {
		t.Error("a request differing in a secret value only was not adopted")
	}
}

// TestJournal_waitsForTheKilledProvider: a killed run's provider that
// still finishes its creates holds its file's lock; the next run waits for
// it, and adopts what it recorded.
func TestJournal_waitsForTheKilledProvider(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, keep)
	dir := t.TempDir()
	req := geoIP("late")
	killed := a.run(dir)
	first, _ := create(t, killed, req)
	go func() {
		time.Sleep(300 * time.Millisecond)
		release(func(key any, _ *journal) bool { return key == killed }, false)
	}()
	again, diags := create(t, a.run(dir), req)
	if again.ID != first.ID || !adopted(diags) {
		t.Errorf("got config %d, want %d adopted once the killed provider ended", again.ID, first.ID)
	}
}

// TestJournal_unanswered: a killed run's create that never saw its answer
// proves nothing: the configs that match are named in a warning, and a
// config is created.
func TestJournal_unanswered(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, keep)
	dir := t.TempDir()
	req := geoIP("unanswered")
	made, err := a.c.Create(context.Background(), "1", framework.Transformation.Collection, req.Input)
	if err != nil {
		t.Fatal(err)
	}
	killed := journalOf(a.run(dir), dir)
	killed.begin(a.c.Host(), "1", string(framework.Transformation.Collection), req.fingerprint(a.c.Host(), "1", framework.Transformation.Collection), time.Now().Add(-time.Second))
	Release(dir, false)
	rec, diags := create(t, a.run(dir), req)
	if rec.ID == made.ID || adopted(diags) {
		t.Fatalf("config %d was adopted", made.ID)
	}
	if w := diags.Warnings(); len(w) != 1 || !strings.Contains(w[0].Detail(), itoa(made.ID)) {
		t.Errorf("warnings %v, want one naming config %d", w, made.ID)
	}
}

// TestJournal_cutLine: a line cut short by a kill is skipped, and entries
// past their age are forgotten with their file.
func TestJournal_cutLine(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, keep)
	dir := t.TempDir()
	req := geoIP("cut")
	first, _ := create(t, a.run(dir), req)
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	Release(dir, false)
	f, err := os.OpenFile(files[0], os.O_APPEND|os.O_WRONLY, 0) //nolint:gosec // a test file
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"seq":1,"do`)
	_ = f.Close()
	if again, diags := create(t, a.run(dir), req); again.ID != first.ID || !adopted(diags) {
		t.Errorf("after a cut line, got config %d, want %d adopted", again.ID, first.ID)
	}

	old := t.TempDir()
	create(t, a.run(old), geoIP("old"))
	Release(old, false)
	files, _ = filepath.Glob(filepath.Join(old, "*.jsonl"))
	past := time.Now().Add(-journalMaxAge - time.Hour)
	if err := os.Chtimes(files[0], past, past); err != nil {
		t.Fatal(err)
	}
	if _, diags := create(t, a.run(old), geoIP("old")); adopted(diags) {
		t.Error("an expired entry was adopted")
	}
	if _, err := os.Stat(files[0]); !os.IsNotExist(err) {
		t.Errorf("the expired file is still there: %v", err)
	}
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }
