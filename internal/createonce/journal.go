package createonce

// The create journal: one locked file per provider process, of the creates
// it made and whether Terraform got their configs. See DESIGN.md, "Create
// recovery adopts only a killed run's orphan".

import (
	"bufio"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

const (
	// journalMaxAge is how long an entry waits for a run to settle it.
	journalMaxAge = 24 * time.Hour
	// lockWait bounds the wait for a killed run's provider that is still
	// finishing the creates under way (stopGrace) before it exits.
	lockWait = stopGrace + 15*time.Second
)

// event is one line of a journal file: the line that opens an entry sets
// Host to Sent; later ones, ID and Updated, Handed or Done.
type event struct {
	Seq         int       `json:"seq"`
	Host        string    `json:"host,omitempty"`
	Project     string    `json:"project,omitempty"`
	Collection  string    `json:"collection,omitempty"`
	Fingerprint string    `json:"fp,omitempty"`
	Sent        time.Time `json:"sent,omitzero"`
	ID          int64     `json:"id,omitempty"`
	// Updated is the config's updated_at in the answer to this run's last
	// write of it.
	Updated string `json:"updated,omitempty"`
	// Handed: the provider gave the config to a live Terraform, which may
	// have stored it in a state.
	Handed bool `json:"handed,omitempty"`
	Done   bool `json:"done,omitempty"`
}

// entry is an open create of a killed run, in file.
type entry struct {
	event
	file string
}

// journal is one configured provider's view of a journal directory: its
// own file, made on its first create, and the killed runs' open entries.
type journal struct {
	dir string

	mu   sync.Mutex
	own  *os.File
	seq  int
	mine map[int64]int // this run's configs: id -> seq
	// keep: an entry of this run is still open at its end (an adoption
	// whose write failed), so a finished run leaves its file too.
	keep bool
	open []*entry
	// loadedAt is when the killed runs' files were read (their providers
	// had ended); zero before.
	loadedAt time.Time
}

var (
	journalsMu sync.Mutex
	journals   = map[any]*journal{}
)

// journalOf returns the journal of key (a configured provider) in dir, nil
// for none.
func journalOf(key any, dir string) *journal {
	if dir == "" {
		return nil
	}
	journalsMu.Lock()
	defer journalsMu.Unlock()
	j := journals[key]
	if j == nil {
		j = &journal{dir: dir, mine: map[int64]int{}}
		journals[key] = j
	}
	return j
}

// Finish ends this process's journals as a finished run's: their files go.
// The provider calls it when Terraform shuts it down.
func Finish() { release(func(any, *journal) bool { return true }, true) }

// Release ends the journals of dir as a finished run's (their files go) or
// a killed run's, and what Orphan played. Tests use it to play the end of a
// provider process.
func Release(dir string, finished bool) {
	release(func(_ any, j *journal) bool { return j.dir == dir }, finished)
	orphaned.Delete(dir)
}

func release(which func(any, *journal) bool, finished bool) {
	journalsMu.Lock()
	var ending []*journal
	for key, j := range journals {
		if which(key, j) {
			ending = append(ending, j)
			delete(journals, key)
		}
	}
	journalsMu.Unlock()
	for _, j := range ending {
		j.mu.Lock()
		if j.own != nil {
			if finished && !j.keep {
				_ = os.Remove(j.own.Name())
			}
			_ = j.own.Close() // releases the lock
			j.own = nil
		}
		j.mu.Unlock()
	}
}

// begin records a create about to be sent and returns its sequence number
// (0: none); answered, wrote, handOver and write record what followed.
func (j *journal) begin(host, project, coll, fp string, sent time.Time) int {
	if j == nil {
		return 0
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.own == nil && !j.openOwn() {
		return 0
	}
	j.seq++
	j.append(event{Seq: j.seq, Host: host, Project: project, Collection: coll, Fingerprint: fp, Sent: sent.UTC()})
	return j.seq
}

// answered records the config an answer to create seq named, as it was.
func (j *journal) answered(seq int, id int64, updated string) {
	if j == nil || seq == 0 {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.mine[id] = seq
	j.append(event{Seq: seq, ID: id, Updated: updated})
}

// wrote records a later write of this run's config id, as it left it.
func (j *journal) wrote(id int64, updated string) {
	if j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if seq, ok := j.mine[id]; ok {
		j.append(event{Seq: seq, Updated: updated})
	}
}

// HandOver records that Terraform gets config id, which Create returned:
// a state may hold it from now on, so no later create adopts it. The caller
// defers it once Create succeeded.
func HandOver(meta *framework.ProviderData, id int64) { journalOf(meta, meta.JournalDir).handOver(id) }

// handOver records that Terraform gets this run's config id, when it is
// still there to get it: a state may hold the config from now on. Before
// that line, or without it, no state can.
func (j *journal) handOver(id int64) {
	if j == nil || j.terraformGone() {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if seq, ok := j.mine[id]; ok {
		delete(j.mine, id)
		j.append(event{Seq: seq, Handed: true})
	}
}

func (j *journal) write(e event) {
	if j == nil || e.Seq == 0 {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.append(e)
}

// openOwn makes this process's file and locks it for the process's life.
// A journal that cannot be written only costs its protection.
func (j *journal) openOwn() bool {
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return false
	}
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	f, err := os.OpenFile(filepath.Join(j.dir, hex.EncodeToString(nonce[:])+".jsonl"), os.O_CREATE|os.O_EXCL|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return false
	}
	if ok, err := tryLock(f); !ok || err != nil {
		_ = f.Close()
		return false
	}
	j.own = f
	return true
}

func (j *journal) append(e event) {
	if j.own == nil {
		return
	}
	b, _ := json.Marshal(e)
	_, _ = j.own.Write(append(b, '\n'))
}

// load reads the open entries of killed runs once. A locked file is waited
// for up to lockWait (a run killed a moment ago finishes its creates under
// way first); one locked longer is a live run's. Under j.mu.
func (j *journal) load(ctx context.Context) {
	if !j.loadedAt.IsZero() {
		return
	}
	defer func() { j.loadedAt = time.Now() }()
	files, err := os.ReadDir(j.dir)
	if err != nil {
		return
	}
	deadline := time.Now().Add(lockWait)
	for _, f := range files {
		name := filepath.Join(j.dir, f.Name())
		if !strings.HasSuffix(name, ".jsonl") || j.own != nil && name == j.own.Name() {
			continue
		}
		withFileLock(ctx, name, deadline, func(fh *os.File) {
			open := readOpen(fh, name)
			info, err := fh.Stat()
			if len(open) == 0 || err == nil && time.Since(info.ModTime()) > journalMaxAge {
				_ = os.Remove(name)
				return
			}
			j.open = append(j.open, open...)
		})
	}
}

// readOpen returns the entries of a journal file that are not settled. A
// line cut short by a kill is skipped.
func readOpen(f *os.File, name string) []*entry {
	bySeq := map[int]*entry{}
	var all []*entry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Seq == 0 {
			continue
		}
		cur := bySeq[e.Seq]
		switch {
		case cur == nil && e.Fingerprint != "":
			bySeq[e.Seq] = &entry{event: e, file: name}
			all = append(all, bySeq[e.Seq])
		case cur == nil:
		default:
			cur.Done = cur.Done || e.Done
			cur.Handed = cur.Handed || e.Handed
			if e.ID != 0 {
				cur.ID = e.ID
			}
			if e.Updated != "" {
				cur.Updated = e.Updated
			}
		}
	}
	return slices.DeleteFunc(all, func(e *entry) bool { return e.Done })
}

// withFileLock runs fn on the file name while holding its lock, waiting
// for the lock until deadline (or ctx ends); without the lock, not at all.
// It reports whether fn ran.
func withFileLock(ctx context.Context, name string, deadline time.Time, fn func(*os.File)) bool {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_APPEND, 0) //nolint:gosec // G304: a file of the journal directory
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }()
	for {
		ok, err := tryLock(f)
		switch {
		case ok:
			fn(f)
			return true
		case err != nil || time.Now().After(deadline):
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// take settles the open entry e, unless another process did first, and
// reports whether it did.
func (j *journal) take(ctx context.Context, e *entry) bool {
	taken := false
	withFileLock(ctx, e.file, time.Now().Add(lockWait), func(f *os.File) {
		for _, cur := range readOpen(f, e.file) {
			if cur.Seq == e.Seq {
				b, _ := json.Marshal(event{Seq: e.Seq, Done: true})
				_, err := f.Write(append(b, '\n'))
				taken = err == nil
			}
		}
	})
	j.mu.Lock()
	defer j.mu.Unlock()
	j.open = slices.DeleteFunc(j.open, func(x *entry) bool { return x == e })
	return taken
}

// matching returns the open entries of killed runs for a create of fp.
func (j *journal) matching(ctx context.Context, host, project, coll, fp string) []*entry {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.load(ctx)
	var out []*entry
	for _, e := range j.open {
		if e.Host == host && e.Project == project && e.Collection == coll && e.Fingerprint == fp {
			out = append(out, e)
		}
	}
	return out
}

// ConfirmInState settles the journal entries of config id, which a
// resource's state holds (a plan or a refresh reads it): no create may adopt
// it, nor warn of it.
func ConfirmInState(ctx context.Context, meta *framework.ProviderData, id types.Int64) {
	if meta != nil && meta.Client != nil && framework.IsSet(id) {
		journalOf(meta, meta.JournalDir).confirm(ctx, meta.Client.Host(), id.ValueInt64())
	}
}

// confirm settles the entries of config id, which a state holds.
func (j *journal) confirm(ctx context.Context, host string, id int64) {
	if j == nil {
		return
	}
	j.mu.Lock()
	j.load(ctx)
	var held []*entry
	for _, e := range j.open {
		if e.ID == id && e.Host == host {
			held = append(held, e)
		}
	}
	j.mu.Unlock()
	for _, e := range held {
		j.take(ctx, e)
	}
}

// journalSubdir is the journal's place in Terraform's data directory.
const journalSubdir = "pipeline-provider/creates"

// DefaultJournalDir is the journal directory of this process (JournalDir of
// the working directory, TF_DATA_DIR or .terraform, and the workspace); ""
// without a data directory (no `terraform init` here).
func DefaultJournalDir() string {
	dataDir := cmp.Or(os.Getenv("TF_DATA_DIR"), ".terraform")
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return JournalDir(wd, dataDir, workspace(dataDir))
}

// JournalDir is the journal directory of a working directory, its data
// directory (relative to it, or absolute) and a workspace, wherever it is
// reached from: through a symlink, the real path, or a copy that took the
// data directory along. A data directory inside the working directory is
// that directory's alone, so the workspace keys it; one elsewhere (a shared
// TF_DATA_DIR) is keyed by the working directory's real path too. "" when
// the data directory does not exist.
func JournalDir(workdir, dataDir, workspace string) string {
	if !filepath.IsAbs(dataDir) {
		dataDir = filepath.Join(workdir, dataDir)
	}
	if fi, err := os.Stat(dataDir); err != nil || !fi.IsDir() { //nolint:gosec // G703: the user's own TF_DATA_DIR
		return ""
	}
	owner := "" // keys the journal too when the data directory is shared
	realWork, errW := filepath.EvalSymlinks(workdir)
	realData, errD := filepath.EvalSymlinks(dataDir)
	rel, errR := filepath.Rel(realWork, realData)
	if errW != nil || errD != nil || errR != nil || !filepath.IsLocal(rel) {
		owner = cmp.Or(realWork, workdir) // EvalSymlinks failed: ""
	}
	return filepath.Join(dataDir, journalSubdir, shortHash(owner+"\x00"+workspace))
}

// workspace is Terraform's selected workspace, as Terraform finds it.
func workspace(dataDir string) string {
	if ws := os.Getenv("TF_WORKSPACE"); ws != "" {
		return ws
	}
	if b, err := os.ReadFile(filepath.Join(dataDir, "environment")); err == nil { //nolint:gosec // G304: Terraform's own file
		if ws := strings.TrimSpace(string(b)); ws != "" {
			return ws
		}
	}
	return "default"
}

// shortHash names a journal file or directory after s.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// terraformPID is Terraform's, the parent that started this provider.
var terraformPID = os.Getppid()

// Orphaned watches Terraform from its first call, and returns a channel
// closed once Terraform is gone (killed), where go-plugin would serve on, and
// the creates under way have recorded what they made (at most stopGrace and 5
// seconds later). The provider then exits without Finish, so that its journal
// keeps the orphans for the next run. Only Unix re-parents an orphan; the
// channel is nil, never closed, when there is no parent to watch.
var Orphaned = sync.OnceValue(func() <-chan struct{} {
	if terraformPID <= 1 {
		return nil // started by init itself: nothing to watch
	}
	gone := make(chan struct{})
	go func() {
		for !parentGone() {
			time.Sleep(time.Second)
		}
		done := make(chan struct{})
		go func() { inFlight.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(stopGrace + 5*time.Second):
		}
		close(gone)
	}()
	return gone
})

// parentGone reports whether Terraform has ended: Unix gives its children to
// another parent as it exits, before it is reaped.
func parentGone() bool { return terraformPID > 1 && os.Getppid() != terraformPID }

// orphaned holds the journal directories whose Terraform a test killed.
var orphaned sync.Map // dir -> true

// Orphan plays, for the provider instances of journal directory dir, the
// end of the Terraform that runs them: what they hand over from now on
// reaches no state. Release ends it. Tests use it, as they use Release.
func Orphan(dir string) { orphaned.Store(dir, true) }

// terraformGone reports whether the Terraform of j's provider is gone: a
// config handed over after that reaches no state, a killed run's orphan.
func (j *journal) terraformGone() bool {
	_, gone := orphaned.Load(j.dir)
	return gone || parentGone()
}
