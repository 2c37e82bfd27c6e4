package createonce

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
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

// active returns the active configs of project 1 in both collections.
func (a *recoveryAPI) active(t *testing.T) []client.Record {
	t.Helper()
	var out []client.Record
	for _, k := range kind.Kinds() {
		recs, err := a.c.ListAll(context.Background(), "1", k.Collection)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if !r.Deleted {
				out = append(out, r)
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

func geoIPInput(name string) client.RecordInput {
	return client.RecordInput{Plugin: client.Some(int64(1)), Order: client.Some(int64(0)), Name: client.Some(name)}
}

// TestCreateRecord_lostAnswer: a create whose answer is lost after the
// service stored it (a proxy's 502 or 504, a reset) is found and used, not
// made twice; one lost before anything was stored is made again.
func TestCreateRecord_lostAnswer(t *testing.T) {
	t.Parallel()
	r := creator{kind: kind.Transformation}
	for _, tc := range []struct {
		name string
		loss localapitest.Loss
	}{
		{"502 after the create", localapitest.Lose502},
		{"504 after the create", localapitest.Lose504},
		{"reset after the create", localapitest.LoseReset},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			decide, posts := losePosts(tc.loss, 1)
			a := newRecoveryAPI(t, decide)
			in := geoIPInput("lost-" + tc.name)
			var diags diag.Diagnostics
			rec, err := r.create(context.Background(), &framework.ProviderData{Client: a.c}, "1", in, &diags)
			if err != nil {
				t.Fatal(err)
			}
			active := a.active(t)
			if len(active) != 1 || active[0].ID != rec.ID {
				t.Fatalf("the API holds %d active configs (%v), want exactly the one returned (%d)", len(active), ids(active), rec.ID)
			}
			if got := posts.Load(); got != 1 {
				t.Errorf("%d POSTs, want 1", got)
			}
			if rec.Name == nil || *rec.Name != *strPtr(in.Name) || len(rec.PluginInfo) == 0 {
				t.Errorf("returned %+v, want the full config named %q", rec, *strPtr(in.Name))
			}
		})
	}
}

// TestCreateRecord_lostBeforeSave: when the failure came before the service
// stored anything, the search finds nothing and the create is sent again.
func TestCreateRecord_lostBeforeSave(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	var srv *localapi.Server
	decide := func(req *http.Request) localapitest.Loss {
		if req.Method == http.MethodPost && posts.Add(1) <= 2 {
			srv.SetFaults(localapi.Faults{Rate502: 1}) // this one fails before the store
		} else {
			srv.SetFaults(localapi.Faults{})
		}
		return localapitest.Keep
	}
	a := newRecoveryAPI(t, decide)
	srv = a.srv
	r := creator{kind: kind.Transformation}
	rec, err := r.create(context.Background(), &framework.ProviderData{Client: a.c}, "1", geoIPInput("before"), &diag.Diagnostics{})
	if err != nil {
		t.Fatal(err)
	}
	if active := a.active(t); len(active) != 1 || active[0].ID != rec.ID {
		t.Fatalf("active configs %v, want only %d", ids(active), rec.ID)
	}
	if got := posts.Load(); got != 3 {
		t.Errorf("%d POSTs, want 3 (two refused, one stored)", got)
	}
}

// TestCreateRecord_bounded: a create that keeps failing ambiguously gives
// up after max_retries more creates, saying what happened.
func TestCreateRecord_bounded(t *testing.T) {
	t.Parallel()
	var srv *localapi.Server
	a := newRecoveryAPI(t, func(req *http.Request) localapitest.Loss {
		// Every create fails before the store; the searches work.
		if req.Method == http.MethodPost {
			srv.SetFaults(localapi.Faults{Rate502: 1})
		} else {
			srv.SetFaults(localapi.Faults{})
		}
		return localapitest.Keep
	})
	srv = a.srv
	r := creator{kind: kind.Transformation}
	_, err := r.create(context.Background(), &framework.ProviderData{Client: a.c}, "1", geoIPInput("never"), &diag.Diagnostics{})
	if err == nil || !strings.Contains(err.Error(), "gave up after 4 creates") {
		t.Fatalf("error %v, want one that gives up after 4 creates", err)
	}
	if n := a.srv.Counters()["create"]; n != 4 {
		t.Errorf("%d creates sent, want 4 (max_retries 3 + 1)", n)
	}
}

// TestCreateRecord_identicalInParallel: identical configs created at once,
// with answers lost after the service stored the config, end as exactly one
// config per create, each returned to exactly one create.
func TestCreateRecord_identicalInParallel(t *testing.T) {
	t.Parallel()
	losses := localapitest.RandomLoss(0.4, 11, http.MethodPost)
	a := newRecoveryAPI(t, losses.Decide)
	r := creator{kind: kind.Transformation}
	in := client.RecordInput{Plugin: client.Some(int64(2)), Order: client.Some(int64(5)), Enabled: client.Some(true)}
	const n = 16
	got := make([]int64, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec, err := r.create(context.Background(), &framework.ProviderData{Client: a.c}, "1", in, &diag.Diagnostics{})
			if err != nil {
				errs <- err
				return
			}
			got[i] = rec.ID
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	seen := map[int64]bool{}
	for _, id := range got {
		if seen[id] {
			t.Errorf("config %d returned to two creates", id)
		}
		seen[id] = true
	}
	active := a.active(t)
	if len(active) != n {
		t.Errorf("the API holds %d active configs, want %d", len(active), n)
	}
	for _, rec := range active {
		if !seen[rec.ID] {
			t.Errorf("config %d is an orphan: no create returned it", rec.ID)
		}
	}
	if losses.Lost() == 0 {
		t.Error("no answer was lost: the test proves nothing")
	}
}

// TestCreateRecord_notAnotherConfig: the search takes neither a config
// created before the POST nor one that differs in any sent setting.
func TestCreateRecord_notAnotherConfig(t *testing.T) {
	t.Parallel()
	decide, _ := losePosts(localapitest.Lose502, 5)
	a := newRecoveryAPI(t, decide)
	ctx := context.Background()
	in := client.RecordInput{Plugin: client.Some(int64(1)), Order: client.Some(int64(3)), Enabled: client.Some(true),
		Name: client.Some("n"), Filters: client.Some(json.RawMessage(`{"events":[{"type":"events","id":"$pageview"}]}`))}
	// An identical config created before, three that differ, then ours:
	// the fifth POST, whose answer is lost.
	old, err := a.c.Create(ctx, "1", kind.Transformation.Collection, in)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2*dateUncertainty + time.Second) // well before the create under test
	for _, change := range []func(*client.RecordInput){
		func(x *client.RecordInput) { x.Order = client.Some(int64(4)) },
		func(x *client.RecordInput) { x.Enabled = client.Some(false) },
		func(x *client.RecordInput) {
			x.Filters = client.Some(json.RawMessage(`{"events":[{"type":"actions"}]}`))
		},
	} {
		other := in
		change(&other)
		if _, err := a.c.Create(ctx, "1", kind.Transformation.Collection, other); err != nil {
			t.Fatal(err)
		}
	}
	r := creator{kind: kind.Transformation}
	rec, err := r.create(ctx, &framework.ProviderData{Client: a.c}, "1", in, &diag.Diagnostics{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.ID == old.ID || rec.ID != old.ID+4 {
		t.Errorf("adopted config %d, want the one the lost create made (%d)", rec.ID, old.ID+4)
	}
	if n := len(a.active(t)); n != 5 {
		t.Errorf("%d active configs, want 5", n)
	}
}

func TestMatchesSent(t *testing.T) {
	t.Parallel()
	name := "n"
	rec := &client.Record{Plugin: 1, Order: 2, Enabled: true, Name: &name, Filters: json.RawMessage(`{"events":[{"type":"events","properties":[]}]}`),
		Config: json.RawMessage(`{"locale":"en","api_key":"` + record.SecretMask + `"}`)}
	base := client.RecordInput{Plugin: client.Some(int64(1)), Order: client.Some(int64(2)), Enabled: client.Some(true),
		Name: client.Some(" n "), Filters: client.Some(json.RawMessage(`{"events":[{"type":"events"}],"other":1}`))}
	for _, tc := range []struct {
		name   string
		change func(*client.RecordInput, *client.Record)
		want   bool
	}{
		{"same (service-normalised filters, trimmed name)", func(*client.RecordInput, *client.Record) {}, true},
		{"config with a masked secret", func(in *client.RecordInput, _ *client.Record) {
			in.Config = client.Some(json.RawMessage(`{"locale":"en","api_key":"s3cret"}`))
		}, true},
		{"other config value", func(in *client.RecordInput, _ *client.Record) {
			in.Config = client.Some(json.RawMessage(`{"locale":"de"}`))
		}, false},
		{"deleted", func(_ *client.RecordInput, r *client.Record) { r.Deleted = true }, false},
		{"other plugin", func(in *client.RecordInput, _ *client.Record) { in.Plugin = client.Some(int64(2)) }, false},
		{"enabled left out", func(in *client.RecordInput, _ *client.Record) { in.Enabled = client.Opt[bool]{} }, false},
		{"other order", func(in *client.RecordInput, _ *client.Record) { in.Order = client.Some(int64(1)) }, false},
		{"other name", func(in *client.RecordInput, _ *client.Record) { in.Name = client.Some("m") }, false},
		{"name with Unicode spaces Python strips", func(in *client.RecordInput, _ *client.Record) {
			in.Name = client.Some("\u3000n\u001c\n")
		}, true},
		{"a blank name: left to matchesFallback", func(in *client.RecordInput, r *client.Record) {
			in.Name, r.Name = client.Some(" \n"), nil
		}, true},
		{"description sent, none stored", func(in *client.RecordInput, _ *client.Record) { in.Description = client.Some("d") }, false},
		{"filters left out", func(in *client.RecordInput, _ *client.Record) { in.Filters = client.Opt[json.RawMessage]{} }, false},
		{"other filters", func(in *client.RecordInput, _ *client.Record) {
			in.Filters = client.Some(json.RawMessage(`{"actions":[{"type":"events"}]}`))
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, r := base, *rec
			tc.change(&in, &r)
			if got := matchesSent(&r, in); got != tc.want {
				t.Errorf("matchesSent = %v, want %v", got, tc.want)
			}
		})
	}
	// A name left out must be the plugin's.
	info := json.RawMessage(`{"name":"GeoIP","description":"Adds location"}`)
	plugin, desc := "GeoIP", "Adds location"
	in := client.RecordInput{Plugin: client.Some(int64(1))}
	if !matchesFallback(&client.Record{Name: &plugin, Description: &desc, PluginInfo: info}, in) {
		t.Error("the plugin's name does not match a name left out")
	}
	if matchesFallback(&client.Record{Name: &name, Description: &desc, PluginInfo: info}, in) {
		t.Error("a name of its own matches a name left out")
	}
	// A blank name is the plugin's as well; an empty one always is, a
	// plugin whose own is "" or null shows nothing else.
	blank := client.RecordInput{Plugin: client.Some(int64(1)), Name: client.Some("  ")}
	if !matchesFallback(&client.Record{Name: &plugin, Description: &desc, PluginInfo: info}, blank) {
		t.Error("the plugin's name does not match a blank name")
	}
	empty := ""
	nameless := json.RawMessage(`{"name":null,"description":""}`)
	if !matchesFallback(&client.Record{Name: nil, Description: &empty, PluginInfo: nameless}, in) {
		t.Error("the plugin's null name and empty description do not match what was left out")
	}
	if matchesFallback(&client.Record{Name: &name, Description: &empty, PluginInfo: nameless}, blank) {
		t.Error("a name of its own matches a blank name of a plugin without a name")
	}
}

// deadPID returns the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$") //nolint:gosec // this test binary, doing nothing
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// writeEntry leaves a journal entry as another process would have.
func writeEntry(t *testing.T, dir string, e journalEntry) {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d-other-%d.json", e.PID, e.ID)), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAdoptOrphan: the journal of a killed run leads a create of the same
// settings to the config that run made, whether or not its answer came;
// never to one in the state (confirmed), to one of a running process, or to
// one whose settings differ.
func TestAdoptOrphan(t *testing.T) {
	t.Parallel()
	dead := deadPID(t)
	r := creator{kind: kind.Transformation}
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		entry     func(e *journalEntry, made int64)
		other     bool // the killed run made a config of other settings
		wantAdopt bool
	}{
		{"answer seen", func(e *journalEntry, made int64) { e.ID = made }, false, true},
		{"answer never seen", func(*journalEntry, int64) {}, false, true},
		{"confirmed: in the state", func(e *journalEntry, made int64) { e.ID, e.Confirmed = made, true }, false, false},
		{"writer still running", func(e *journalEntry, made int64) { e.ID, e.PID = made, os.Getppid() }, false, false},
		{"other settings", func(e *journalEntry, made int64) { e.ID = made }, true, false},
		{"config gone", func(e *journalEntry, _ int64) { e.ID = 999999 }, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newRecoveryAPI(t, func(*http.Request) localapitest.Loss { return localapitest.Keep })
			jr, err := openJournal(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			in := geoIPInput("orphan")
			made := in
			if tc.other {
				made = geoIPInput("something else")
			}
			started := time.Now()
			orphan, err := a.c.Create(ctx, "1", kind.Transformation.Collection, made)
			if err != nil {
				t.Fatal(err)
			}
			fp := createFingerprint(a.c.Host(), "1", kind.Transformation.Collection, made)
			e := journalEntry{Host: a.c.Host(), Project: "1", Collection: string(kind.Transformation.Collection),
				Fingerprint: fp, Started: started, PID: dead, Owner: "killed"}
			tc.entry(&e, orphan.ID)
			writeEntry(t, jr.dir, e)

			reg := &createRegistry{claimed: map[int64]bool{}, gates: map[string]*sync.RWMutex{}}
			fp = createFingerprint(a.c.Host(), "1", kind.Transformation.Collection, in)
			var diags diag.Diagnostics
			rec, err := r.adoptOrphan(ctx, a.c, jr, reg, reg.gate(fp), "1", fp, in, &diags)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.wantAdopt {
				if rec != nil {
					t.Fatalf("adopted config %d", rec.ID)
				}
				return
			}
			if rec == nil || rec.ID != orphan.ID {
				t.Fatalf("adopted %v, want config %d", rec, orphan.ID)
			}
			if len(diags) != 1 || !strings.Contains(diags[0].Summary(), "Adopted transformation config") {
				t.Errorf("diagnostics %v, want one warning about the adoption", diags)
			}
			// The killed run's entry is gone; one of this process holds
			// the config now.
			files, _ := filepath.Glob(filepath.Join(jr.dir, "*"))
			if len(files) != 1 || !strings.HasPrefix(filepath.Base(files[0]), jr.owner+"-") {
				t.Errorf("journal files %v, want one of this process", files)
			}
			if jr2, _ := openJournal(jr.dir); !jr2.knownIDs()[orphan.ID] {
				t.Errorf("config %d is not in the journal after the adoption", orphan.ID)
			}
		})
	}
}

// TestJournal_lifecycle: begin, created and drop write what a later process
// reads; confirm marks an entry for good.
func TestJournal_lifecycle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jr, err := openJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	kept := jr.begin("http://h", "1", kind.Transformation.Collection, "fp", time.Now())
	kept.created(42)
	jr.begin("http://h", "1", kind.Transformation.Collection, "fp", time.Now()).drop()
	jr.begin("http://h", "1", kind.Transformation.Collection, "fp2", time.Now()) // pending

	later, _ := openJournal(dir)
	if known := later.knownIDs(); !known[42] || len(known) != 1 {
		t.Errorf("known ids %v, want just 42", known)
	}
	// Another owner with this process's id can only be a dead process
	// whose id came round again: its pending entry is an orphan.
	if o := later.orphans("http://h", "1", kind.Transformation.Collection, "fp2"); len(o) != 1 {
		t.Errorf("%d orphans of the pending create, want 1", len(o))
	}
	later.confirm("http://h", 42)
	if o := later.orphans("http://h", "1", kind.Transformation.Collection, "fp"); len(o) != 0 {
		t.Errorf("a confirmed entry is an orphan")
	}
	again, _ := openJournal(dir)
	again.load()
	for _, e := range again.entries {
		if e.ID == 42 && !e.Confirmed {
			t.Error("the confirmation was not stored")
		}
	}
	var nilJournal *createJournal
	nilJournal.begin("h", "1", kind.Transformation.Collection, "fp", time.Now()).created(1) // no journal: no-ops
	if len(nilJournal.knownIDs()) != 0 || nilJournal.orphans("h", "1", kind.Transformation.Collection, "fp") != nil {
		t.Error("a nil journal knows something")
	}
}

func ids(recs []client.Record) []int64 {
	out := make([]int64, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

func strPtr(o client.Opt[string]) *string {
	v, _ := o.Get()
	return &v
}

// TestJournal_expires: entries older than journalMaxAge are deleted when a
// process reads the journal, and never lead to an adoption.
func TestJournal_expires(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := journalEntry{Host: "http://h", Project: "1", Collection: string(kind.Transformation.Collection), Fingerprint: "fp",
		Started: time.Now().Add(-2 * journalMaxAge), ID: 7, PID: deadPID(t), Owner: "old"}
	writeEntry(t, dir, e)
	old := time.Now().Add(-journalMaxAge - time.Hour)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		if err := os.Chtimes(f, old, old); err != nil {
			t.Fatal(err)
		}
	}
	jr, err := openJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	if o := jr.orphans("http://h", "1", kind.Transformation.Collection, "fp"); len(o) != 0 {
		t.Errorf("an expired entry is an orphan: %+v", o[0])
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("expired entries left: %v", left)
	}
}

// TestCreateRecord_unsaved: a generation 2 service answers a create with a
// config it did not save, after making a hog function of it. The create is
// refused as it is: one POST, no search for a config (no list), no second
// POST, and no journal entry left for a later run to resolve.
func TestCreateRecord_unsaved(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, func(*http.Request) localapitest.Loss { return localapitest.Keep })
	if err := a.srv.SetGeneration(localapi.Generation2); err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	_, err := Create(context.Background(), &framework.ProviderData{Client: a.c}, kind.Transformation, "1", geoIPInput("unsaved"), &diags)
	if !client.IsUnsaved(err) {
		t.Fatalf("got %v, want the unsaved create", err)
	}
	counters := a.srv.Counters()
	if counters["create"] != 1 || counters["list"] != 0 || counters["total"] != 1 {
		t.Errorf("counters %v, want the one POST and nothing else", counters)
	}
	if made := a.srv.HogFunctions(); len(made) != 1 {
		t.Errorf("%d hog functions, want the one the POST made", len(made))
	}

	jr, err := openJournal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	entry := jr.begin(a.c.Host(), "1", kind.Transformation.Collection, "fp", time.Now())
	if _, err := (creator{kind: kind.Transformation}).settle(entry, nil, &client.UnsavedError{Method: http.MethodPost, Status: 201}); !client.IsUnsaved(err) {
		t.Fatalf("settle returned %v", err)
	}
	if files, _ := os.ReadDir(jr.dir); len(files) != 0 {
		t.Errorf("journal files %v after an unsaved create, want none", files)
	}
}

// TestCreateRecord_lostAnswerAtGeneration2: at generation 2 a create whose
// answer is lost made a hog function and stored nothing; once the search
// has seen the service's configs without filters, the create is not sent
// again: one POST, one hog function, an error that says why.
func TestCreateRecord_lostAnswerAtGeneration2(t *testing.T) {
	t.Parallel()
	decide, posts := losePosts(localapitest.Lose502, 2) // the create's, after one made at generation 1
	a := newRecoveryAPI(t, decide)
	if _, err := a.c.Create(context.Background(), "1", kind.Transformation.Collection, geoIPInput("made at generation 1")); err != nil {
		t.Fatal(err)
	}
	if err := a.srv.SetGeneration(localapi.Generation2); err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	_, err := Create(context.Background(), &framework.ProviderData{Client: a.c}, kind.Transformation, "1", geoIPInput("lost"), &diags)
	if err == nil || !client.MayHaveApplied(err) || !strings.Contains(err.Error(), "The create was not sent again") {
		t.Fatalf("got %v, want the lost answer, not sent again", err)
	}
	if n := posts.Load(); n != 2 {
		t.Errorf("%d POSTs, want the one at generation 1 and one create", n)
	}
	if made := a.srv.HogFunctions(); len(made) != 1 {
		t.Errorf("%d hog functions, want the one the lost create made", len(made))
	}
}
