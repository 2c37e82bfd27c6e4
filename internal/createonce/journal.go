package createonce

// The create journal: configs created by a run that was killed before
// Terraform stored them.
//
// Terraform stores a new config's id when Create returns. A run killed
// before that (SIGKILL, a crash, a CI runner that vanished; Terraform's
// provider processes die with it) leaves configs on the service that no
// state knows, and the next apply would create them again. The service has
// no idempotency key, and adopting "an identical config created recently"
// could take one that another resource of the same configuration manages
// (the provider never sees the whole state). So the provider keeps a
// journal in Terraform's data directory (TF_DATA_DIR, .terraform by
// default): one small file per create, written before the POST and given
// the config's id when the answer comes. The next plan marks the entries of
// configs that are in the state as confirmed (every resource in the state
// passes through ModifyPlan, with or without refresh). A create then adopts
// what an entry of a dead process that was never confirmed points at, if it
// still holds exactly the settings being created: the config of that id, or,
// when the killed run never saw an answer, a config created around the time
// of its POST that no journal entry knows. Entries older than
// journalMaxAge are forgotten. Without a data directory (no `terraform
// init` in the working directory) there is no journal.
//
// The files hold the service's URL, project, collection, a hash of the
// settings sent (never the plugin settings, which may hold secrets), the
// time, the config id, and the process that wrote them.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

const (
	// journalSubdir is the journal's place in Terraform's data directory.
	journalSubdir = "pipeline-provider/pending-creates"
	// journalMaxAge is how long an entry may wait for the next run.
	journalMaxAge = 24 * time.Hour
	// pendingWindow bounds when a POST without an answer may have been
	// applied: no create runs longer than its default timeout.
	pendingWindow = framework.DefaultWriteTimeout
)

// createJournal is the journal of one provider process.
type createJournal struct {
	dir   string
	owner string // this process: "<pid>-<random>"
	seq   atomic.Int64

	mu      sync.Mutex
	loaded  bool
	entries []*journalEntry // other processes' entries, read once
	own     map[int64]bool  // configs this process's entries hold
}

// journalEntry is one create. Its methods do nothing on a nil entry (no
// journal).
type journalEntry struct {
	Host        string    `json:"host"`
	Project     string    `json:"project"`
	Collection  string    `json:"collection"`
	Fingerprint string    `json:"fingerprint"`
	Started     time.Time `json:"started"`
	ID          int64     `json:"id,omitempty"`
	Confirmed   bool      `json:"confirmed,omitempty"`
	PID         int       `json:"pid"`
	Owner       string    `json:"owner"`

	j    *createJournal
	file string
}

var (
	journalOnce sync.Once
	journal     *createJournal
)

// defaultJournal returns the journal in Terraform's data directory of the
// working directory, or nil when there is none.
func defaultJournal() *createJournal {
	journalOnce.Do(func() {
		dataDir := os.Getenv("TF_DATA_DIR")
		if dataDir == "" {
			dataDir = ".terraform"
		}
		// Terraform's own data directory, as Terraform itself finds it.
		if fi, err := os.Stat(dataDir); err != nil || !fi.IsDir() { //nolint:gosec // G703: the path is the user's TF_DATA_DIR
			return
		}
		journal, _ = openJournal(filepath.Join(dataDir, journalSubdir))
	})
	return journal
}

// openJournal opens (and creates) a journal directory.
func openJournal(dir string) (*createJournal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil { //nolint:gosec // G703: inside Terraform's data directory
		return nil, err
	}
	var nonce [6]byte
	_, _ = rand.Read(nonce[:])
	return &createJournal{
		dir:   dir,
		owner: strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(nonce[:]),
		own:   map[int64]bool{},
	}, nil
}

// begin records a create about to be sent.
func (j *createJournal) begin(host, project string, coll client.Collection, fp string, started time.Time) *journalEntry {
	if j == nil {
		return nil
	}
	e := &journalEntry{
		Host: host, Project: project, Collection: string(coll), Fingerprint: fp,
		Started: started.UTC(), PID: os.Getpid(), Owner: j.owner,
		j: j, file: filepath.Join(j.dir, fmt.Sprintf("%s-%d.json", j.owner, j.seq.Add(1))),
	}
	e.write()
	return e
}

// write stores the entry whole (a rename, so a reader never sees half).
// A journal that cannot be written only costs its protection.
func (e *journalEntry) write() {
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	tmp := e.file + ".tmp"
	if os.WriteFile(tmp, b, 0o600) == nil {
		_ = os.Rename(tmp, e.file)
	}
}

// created records the config the create made (or adopted).
func (e *journalEntry) created(id int64) {
	if e == nil {
		return
	}
	e.ID = id
	e.j.mu.Lock()
	e.j.own[id] = true
	e.j.mu.Unlock()
	e.write()
}

// drop forgets a create that made nothing.
func (e *journalEntry) drop() {
	if e != nil {
		_ = os.Remove(e.file)
	}
}

// load reads the other processes' entries once, and deletes expired ones.
// The caller holds j.mu.
func (j *createJournal) load() {
	if j.loaded {
		return
	}
	j.loaded = true
	files, err := os.ReadDir(j.dir)
	if err != nil {
		return
	}
	for _, f := range files {
		name := filepath.Join(j.dir, f.Name())
		info, err := f.Info()
		if err != nil {
			continue
		}
		if time.Since(info.ModTime()) > journalMaxAge {
			_ = os.Remove(name)
			continue
		}
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(f.Name(), j.owner+"-") {
			continue // being written or taken, or this process's own
		}
		b, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		e := &journalEntry{j: j, file: name}
		if json.Unmarshal(b, e) != nil {
			continue
		}
		j.entries = append(j.entries, e)
	}
}

// confirm marks the entry of config id of the service host as stored in
// the state.
func (j *createJournal) confirm(host string, id int64) {
	if j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.load()
	for _, e := range j.entries {
		if e.ID == id && e.Host == host && !e.Confirmed {
			e.Confirmed = true
			e.write()
		}
	}
}

// knownIDs returns the configs any entry holds: a search for a config whose
// create lost its answer must not take one of those.
func (j *createJournal) knownIDs() map[int64]bool {
	ids := map[int64]bool{}
	if j == nil {
		return ids
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.load()
	for _, e := range j.entries {
		if e.ID != 0 {
			ids[e.ID] = true
		}
	}
	for id := range j.own {
		ids[id] = true
	}
	return ids
}

// orphans returns the entries of creates of the same settings that a dead
// process left unconfirmed.
func (j *createJournal) orphans(host, project string, coll client.Collection, fp string) []*journalEntry {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.load()
	var out []*journalEntry
	for _, e := range j.entries {
		if e.Confirmed || e.Host != host || e.Project != project || e.Collection != string(coll) || e.Fingerprint != fp {
			continue
		}
		// An entry of this process's pid but another owner is from a dead
		// process whose pid came round again.
		if e.PID != os.Getpid() && processAlive(e.PID) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// take makes e this process's to resolve; false when another process
// took it first (or it is gone).
func (j *createJournal) take(e *journalEntry) bool {
	taken := e.file + ".taken-" + j.owner
	if os.Rename(e.file, taken) != nil {
		return false
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	for i, x := range j.entries {
		if x == e {
			j.entries = append(j.entries[:i], j.entries[i+1:]...)
			break
		}
	}
	e.file = taken
	return true
}

// adoptOrphan resolves the entries a killed run left for creates of these
// settings: the first that still points at a config holding them gives the
// config this create returns (with a warning saying so). Entries that
// point at nothing are forgotten. nil, nil: nothing to adopt, POST.
func (r creator) adoptOrphan(ctx context.Context, c *client.Client, jr *createJournal, reg *createRegistry, gate *sync.RWMutex,
	project, fp string, in client.RecordInput, diags *diag.Diagnostics,
) (*client.Record, error) {
	orphans := jr.orphans(c.Host(), project, r.kind.Collection, fp)
	if len(orphans) == 0 {
		return nil, nil
	}
	// No POST of these settings may be under way while searching.
	gate.Lock()
	defer gate.Unlock()
	for _, e := range orphans {
		if !jr.take(e) {
			continue
		}
		rec, err := r.resolveOrphan(ctx, c, reg, jr, project, in, e)
		if err != nil {
			// Leave the entry for the next run; report why this one failed.
			_ = os.Rename(e.file, strings.TrimSuffix(e.file, ".taken-"+jr.owner))
			return nil, fmt.Errorf("a previous run was interrupted while creating a %s with these settings, and looking for what it created failed: %w", r.kind.Noun, err)
		}
		_ = os.Remove(e.file)
		if rec == nil {
			continue
		}
		jr.begin(c.Host(), project, r.kind.Collection, fp, time.Now()).created(rec.ID)
		tflog.Warn(ctx, "adopted a config an interrupted run created", map[string]any{"config_id": rec.ID})
		diags.AddWarning(fmt.Sprintf("Adopted %s %d, created by an interrupted run", r.kind.Noun, rec.ID),
			fmt.Sprintf("A previous run in this working directory created %s %d with exactly these settings at %s, "+
				"but stopped before Terraform stored it in the state. This resource now manages it instead of "+
				"creating a second one.", r.kind.Noun, rec.ID, e.Started.Format(time.RFC3339)))
		return r.resendSettings(ctx, c, project, rec, in)
	}
	return nil, nil
}

// resolveOrphan finds the config an entry of a killed run stands for, if it
// is still active, holds what in sends, and no create of this process
// claimed it; it claims it.
func (r creator) resolveOrphan(ctx context.Context, c *client.Client, reg *createRegistry, jr *createJournal,
	project string, in client.RecordInput, e *journalEntry,
) (*client.Record, error) {
	if e.ID == 0 {
		// The answer never came: what did the POST create around then?
		return r.findCreated(ctx, c, reg, jr, project, in, e.Started, pendingWindow+2*clockSkew)
	}
	if reg.isClaimed(e.ID) {
		return nil, nil
	}
	for _, k := range r.kind.OwnFirst() {
		rec, err := c.Get(ctx, project, k.Collection, e.ID)
		if client.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !matchesSent(rec, in) || !matchesFallback(rec, in) || !reg.claim(rec.ID) {
			return nil, nil
		}
		return rec, nil
	}
	return nil, nil
}

// ConfirmInState marks the journal entry of the config in a resource's
// prior state as stored: Terraform has it, so no create may adopt it.
func ConfirmInState(ctx context.Context, meta *framework.ProviderData, state tfsdk.State) {
	jr := defaultJournal()
	if jr == nil || meta == nil || meta.Client == nil || state.Raw.IsNull() {
		return
	}
	// A raw read: every plan of every config passes here.
	id := framework.RawInt64(framework.RawAttributes(state.Raw)["id"])
	if !framework.IsSet(id) {
		return
	}
	jr.confirm(meta.Client.Host(), id.ValueInt64())
}
