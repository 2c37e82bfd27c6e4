// Package createonce makes the one POST of a config create, and never
// makes a config twice, nor takes one that another resource holds: see
// DESIGN.md, "POST is retried only when it provably did not reach the
// service" and "Create recovery adopts only a killed run's orphan".
package createonce

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

const (
	// clockSkew is how far off the service's clock, as the client estimates
	// it, may be; noDateSkew before any answer had a Date.
	clockSkew  = 2 * time.Second
	noDateSkew = 2 * time.Minute
	// stopGrace is how long a write under way outlives Terraform's stop, so
	// that the new config's id reaches the state or the journal.
	stopGrace = 15 * time.Second
)

// inFlight counts the creates under way.
var inFlight sync.WaitGroup

// Request is a create: what the POST sends, the plugin settings the config
// is to hold (Input.Settings, or sent later by the caller), which are
// secret (the journal keeps no secret value), and how to tell a config that
// holds what it sends.
type Request struct {
	Input      client.RecordInput
	Settings   client.Opt[json.RawMessage]
	SecretKeys []string
	// Holds reports whether rec, as the service stores and shows it, may be
	// what Input made: an active config holding everything sent; with
	// fallback, a name or description left out (or blank) shows the
	// plugin's own too. The resource knows its attributes, not the journal.
	Holds func(rec *client.Record, fallback bool) bool
}

// fingerprint identifies what r makes, secret values aside.
func (r Request) fingerprint(host, project string, coll client.Collection) string {
	in := r.Input
	in.Settings = client.Opt[json.RawMessage]{}
	body, _ := json.Marshal(in)
	var settings []byte
	if cfg, ok := r.Settings.Get(); ok {
		var m map[string]any
		if json.Unmarshal(cfg, &m) == nil {
			for _, k := range r.SecretKeys {
				if _, set := m[k]; set {
					m[k] = "secret"
				}
			}
			settings, _ = json.Marshal(m) // sorted keys
		}
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{host, project, string(coll), string(body), string(settings)}, "\x00")))
	return hex.EncodeToString(sum[:])
}

// Create creates the config req sends in project's collection of kind k,
// or adopts, with a warning, the one a killed run created with it. The
// caller calls HandOver when it gives Terraform what it returns.
func Create(ctx context.Context, meta *framework.ProviderData, k framework.Kind, project string, req Request, diags *diag.Diagnostics) (*client.Record, error) {
	inFlight.Add(1)
	defer inFlight.Done()
	if err := RefuseUnsavedBefore(meta); err != nil {
		return nil, err
	}
	c := meta.Client
	j := journalOf(meta, meta.JournalDir)
	coll := string(k.Collection)
	fp := req.fingerprint(c.Host(), project, k.Collection)

	if rec, err := adopt(ctx, c, j, k, project, fp, req, diags); rec != nil || err != nil {
		if rec != nil {
			meta.ReadCache().Invalidate(rec.ID) // found, not made: a page may show it as it was
		}
		return rec, err
	}

	reg := registryFor(c)
	for attempt := 0; ; attempt++ {
		sent := time.Now()
		seq := j.begin(c.Host(), project, coll, fp, sent)
		reg.gate.RLock()
		rec, err := outliveStop(ctx, func(ctx context.Context) (*client.Record, error) {
			return c.Create(ctx, project, k.Collection, req.Input)
		})
		if err == nil {
			reg.made.Store(rec.ID, true)
		}
		reg.gate.RUnlock()
		switch {
		case err == nil:
			j.answered(seq, rec.ID, rec.UpdatedAt)
			return rec, nil
		case !client.MayHaveApplied(err):
			j.write(event{Seq: seq, Done: true})
			if unsaved := (*client.UnsavedError)(nil); errors.As(err, &unsaved) {
				j.noteUnsaved(c.Host(), unsaved)
			}
			return nil, err
		}
		// With no other create under way, so that the configs they made are
		// known and not taken for this one's.
		reg.gate.Lock()
		ids, lerr := candidates(ctx, c, k, project, req.Holds, sent, time.Time{})
		reg.gate.Unlock()
		ids = slices.DeleteFunc(ids, func(id int64) bool { _, made := reg.made.Load(id); return made })
		// After a 502 or 503 the request was not taken, which a list without
		// its config settles (a 504, a reset or a timeout may leave it at
		// work, to store the config after the list): sending it again is safe.
		status := client.StatusOf(err)
		unavailable := status == http.StatusBadGateway || status == http.StatusServiceUnavailable
		if lerr == nil && len(ids) == 0 && unavailable && attempt < c.MaxRetries() && ctx.Err() == nil {
			j.write(event{Seq: seq, Done: true})
			continue
		}
		// Left open: a killed process's next run warns of what matches.
		return nil, lostAnswer(k, project, ids, lerr, err)
	}
}

// adopt settles the open entries of killed runs for creates of fp. The
// first orphan whose config the service shows as the killed run left it
// (holding what req sends, updated_at unchanged) becomes this create's; the
// others earn a warning that names the config they may have left, if any.
// nil, nil: POST.
func adopt(ctx context.Context, c *client.Client, j *journal, k framework.Kind, project, fp string, req Request,
	diags *diag.Diagnostics,
) (*client.Record, error) {
	for _, e := range j.matching(ctx, c.Host(), project, string(k.Collection), fp) {
		if e.ID == 0 {
			if j.take(ctx, e) {
				warnUnanswered(ctx, c, j, k, project, req, e, diags)
			}
			continue
		}
		var rec *client.Record
		var err error
		withAdoptionLock(ctx, func() {
			var shows client.Collection
			rec, shows, err = orphanConfig(ctx, c, k, project, req, e.ID)
			switch {
			case err != nil:
				err = fmt.Errorf("a previous run in this working directory was killed after creating %s %d "+
					"with these settings, and reading it failed: %w", k.Noun, e.ID, err)
			case !j.take(ctx, e) || rec == nil:
				rec = nil // another run's now, or gone, or changed: not what this create makes
			case e.Handed || e.Updated == "": // a state may hold it (older providers journaled neither)
				warnLeftover(diags, k, e, handedNote)
				rec = nil
			case rec.UpdatedAt != e.Updated:
				warnLeftover(diags, k, e, fmt.Sprintf(touchedNote, rec.UpdatedAt, e.Updated))
				rec = nil
			default:
				rec, err = j.claim(ctx, c, k, e, shows, rec, req.Input, diags)
			}
		})
		if rec != nil || err != nil {
			return rec, err
		}
	}
	return nil, nil
}

// claim makes config rec, the orphan of e, whose entry this create took,
// this run's: journaled as this run's answer, then written to (its settings
// sent again, or an empty update), which moves its updated_at, so that a copy
// of this working directory, whose journal holds the same entry, sees that it
// was adopted.
func (j *journal) claim(ctx context.Context, c *client.Client, k framework.Kind, e *entry, shows client.Collection,
	rec *client.Record, in client.RecordInput, diags *diag.Diagnostics,
) (*client.Record, error) {
	j.answered(j.begin(e.Host, e.Project, e.Collection, e.Fingerprint, time.Now()), rec.ID, rec.UpdatedAt)
	registryFor(c).made.Store(rec.ID, true)
	write := client.RecordInput{Settings: in.Settings}
	if shows != k.Collection {
		write = client.RecordInput{} // another kind's config: Create refuses it anyway
	}
	updated, err := outliveStop(ctx, func(ctx context.Context) (*client.Record, error) {
		return c.Update(ctx, e.Project, shows, rec.ID, write)
	})
	if err != nil {
		j.mu.Lock()
		j.keep = true // the entry stays for the next run: the config reached no state
		j.mu.Unlock()
		return nil, fmt.Errorf("%s %d, created by a killed run, was adopted, but writing to it failed: %w", k.Noun, rec.ID, err)
	}
	j.wrote(rec.ID, updated.UpdatedAt)
	tflog.Warn(ctx, "adopted a config a killed run created", map[string]any{"config_id": rec.ID})
	diags.AddWarning(fmt.Sprintf("Adopted %s %d, created by a killed run", k.Noun, rec.ID),
		fmt.Sprintf("A previous run in this working directory and workspace created %s %d with exactly these settings "+
			"at %s, and was killed before it gave the config to Terraform, so no state holds it. This resource now "+
			"manages it instead of creating a second one.", k.Noun, rec.ID, e.Sent.Format(time.RFC3339)))
	return updated, nil
}

// orphanConfig returns config id, a killed run's orphan, with the
// collection that shows it, if it is active and still holds what req sends.
func orphanConfig(ctx context.Context, c *client.Client, k framework.Kind, project string, req Request, id int64) (*client.Record, client.Collection, error) {
	for _, kk := range k.OwnFirst() {
		rec, err := c.Get(ctx, project, kk.Collection, id)
		switch {
		case client.IsNotFound(err): // not this collection's
		case err != nil:
			return nil, "", err
		case !req.Holds(rec, true):
			return nil, "", nil
		default:
			return rec, kk.Collection, nil
		}
	}
	return nil, "", nil
}

// The reasons a killed run's config that holds these settings is not
// adopted.
const (
	handedNote = "and gave it to Terraform, which may have saved it in a state before the run was killed. No plan " +
		"or refresh of this state has seen it since: it may have been removed from this state (terraform state rm, " +
		"a removed block) and be managed elsewhere now."
	touchedNote = "and was killed before it gave the config to Terraform, but the config was written to since " +
		"(updated_at %s, not %s as that run left it): a copy of this working directory may have adopted it, or " +
		"someone changed it."
)

// warnLeftover warns that e's config, which holds these settings, was not
// adopted (why says why), and may be left over.
func warnLeftover(diags *diag.Diagnostics, k framework.Kind, e *entry, why string) {
	noun := strings.ToUpper(k.Noun[:1]) + k.Noun[1:]
	diags.AddWarning(fmt.Sprintf("%s %d may be left over from a killed run", noun, e.ID),
		fmt.Sprintf("A previous run in this working directory and workspace created %s %d with exactly these "+
			"settings at %s, %s It was not adopted, and this resource was created anew. If no state manages %s %d, "+
			"it is left over: delete it.", k.Noun, e.ID, e.Sent.Format(time.RFC3339), why, k.Noun, e.ID))
}

// warnUnanswered warns of each config an unanswered create of a killed run
// may have made: those that match, created between its POST and its end.
func warnUnanswered(ctx context.Context, c *client.Client, j *journal, k framework.Kind, project string, req Request,
	e *entry, diags *diag.Diagnostics,
) {
	before := e.Sent.Add(framework.DefaultWriteTimeout)
	if j.loadedAt.Before(before) {
		before = j.loadedAt
	}
	ids, err := candidates(ctx, c, k, project, req.Holds, e.Sent, before)
	if err != nil {
		return
	}
	noun := strings.ToUpper(k.Noun[:1]) + k.Noun[1:]
	for _, id := range ids {
		diags.AddWarning(fmt.Sprintf("%s %d may be left over from a killed run", noun, id),
			fmt.Sprintf("A previous run in this working directory and workspace was killed at %s while creating a %s "+
				"with these settings, before its answer came. %s %d, created then with these settings, may be what it "+
				"made, or another state's. This resource was created anew. If no state manages %s %d, it is left "+
				"over: delete it.", e.Sent.Format(time.RFC3339), k.Noun, noun, id, k.Noun, id))
	}
}

// withAdoptionLock runs fn holding this machine's adoption lock, waited
// for up to lockWait: copies of a working directory, whose journals hold the
// same entries, never look at one config and claim it at once. Where the
// lock cannot be had, fn runs anyway: the updated_at that claim moves still
// tells any later look.
func withAdoptionLock(ctx context.Context, fn func()) {
	name := filepath.Join(os.TempDir(), fmt.Sprintf("terraform-provider-pipeline-%d.adopt.lock", os.Getuid()))
	if f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o600); err == nil { //nolint:gosec // G304: this provider's own lock file
		_ = f.Close()
	}
	if !withFileLock(ctx, name, time.Now().Add(lockWait), func(*os.File) { fn() }) {
		fn()
	}
}

// SetSettings sends the plugin settings of config id, which Create made
// without them, and journals how it left the config.
func SetSettings(ctx context.Context, meta *framework.ProviderData, k framework.Kind, project string, id int64,
	settings client.Opt[json.RawMessage],
) (*client.Record, error) {
	inFlight.Add(1)
	defer inFlight.Done()
	rec, err := outliveStop(ctx, func(ctx context.Context) (*client.Record, error) {
		return meta.Client.Update(ctx, project, k.Collection, id, client.RecordInput{Settings: settings})
	})
	if err == nil {
		journalOf(meta, meta.JournalDir).wrote(id, rec.UpdatedAt)
	}
	return rec, err
}

// registry is what the creates of one configured provider share: the
// configs they made, and a gate a look for a lost answer's config holds.
type registry struct {
	gate sync.RWMutex
	made sync.Map // config id -> true
}

var registries sync.Map // *client.Client -> *registry

func registryFor(c *client.Client) *registry {
	r, _ := registries.LoadOrStore(c, &registry{})
	return r.(*registry) //nolint:forcetypeassert // only *registry is stored
}

// outliveStop makes one write of a create, which outlives Terraform's stop
// (a cancellation of ctx) by up to stopGrace; ctx's deadline still applies.
func outliveStop(ctx context.Context, write func(context.Context) (*client.Record, error)) (*client.Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	if dl, ok := ctx.Deadline(); ok {
		var cancelAtDeadline context.CancelFunc
		wctx, cancelAtDeadline = context.WithDeadline(wctx, dl)
		defer cancelAtDeadline()
	}
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(stopGrace, cancel) })
	defer stop()
	return write(wctx)
}

// LostAnswerError is a create whose answer was lost (Err); Note says which
// configs match.
type LostAnswerError struct {
	Err  error
	Note string
}

func (e *LostAnswerError) Error() string { return e.Err.Error() + "\n\n" + e.Note }
func (e *LostAnswerError) Unwrap() error { return e.Err }

// lostAnswer names the configs ids, made since with what was sent (lerr:
// listing them failed). Another state may hold any of them: another working
// directory or workspace applying the same configuration at that moment.
func lostAnswer(k framework.Kind, project string, ids []int64, lerr, err error) error {
	var found string
	switch {
	case lerr != nil:
		found = fmt.Sprintf("Listing the project's %ss to find it failed too: %s", k.Noun, framework.DescribeError(lerr))
	case len(ids) == 0:
		found = fmt.Sprintf("No %s that holds these settings was created since: applying again creates it.", k.Noun)
	default:
		found = fmt.Sprintf("The service has %s %s, created since with these settings: this create's, or another "+
			"run's that sent the same (another working directory or workspace applying this configuration to the "+
			"project), which nothing here can tell apart. Applying again would create a second. Once no other apply "+
			"to the project is under way, look in every state that manages its %ss (terraform state list): a config "+
			"that none of them holds is this create's, and can be imported into this resource (an import block "+
			"with id \"%s/<id>\"); one that a state holds is that state's.", k.Noun, strings.ReplaceAll(strings.Trim(fmt.Sprint(ids), "[]"), " ", ", "), k.Noun, project)
	}
	return &LostAnswerError{Err: err, Note: fmt.Sprintf("The create may have reached the service although its answer "+
		"was lost. It was not sent again, so as not to make a second %s, and nothing was saved in the state. %s", k.Noun, found)}
}

// candidates returns the active configs of project (any collection) that
// holds says hold what the create sends, created between after and before
// (zero: now) on the service's clock.
func candidates(ctx context.Context, c *client.Client, k framework.Kind, project string, holds func(*client.Record, bool) bool,
	after, before time.Time,
) ([]int64, error) {
	from, to := onServiceClock(c, after, false), time.Time{}
	if !before.IsZero() {
		to = onServiceClock(c, before, true)
	}
	var ids []int64
	for _, kk := range k.OwnFirst() {
		recs, err := c.ListAll(ctx, project, kk.Collection)
		if err != nil {
			return nil, err
		}
		for i := range recs {
			// An unreadable created_at is never within.
			t, err := time.Parse(time.RFC3339Nano, recs[i].CreatedAt)
			if err == nil && !t.Before(from) && (to.IsZero() || !t.After(to)) && holds(&recs[i], false) {
				ids = append(ids, recs[i].ID)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// onServiceClock is the local moment t on the service's clock, as far as
// its answers' Date headers tell, moved by how far off that may be: earlier,
// or later if later.
func onServiceClock(c *client.Client, t time.Time, later bool) time.Time {
	skew := noDateSkew
	if st, ok := c.ServiceTime(t); ok {
		t, skew = st, clockSkew
	}
	if !later {
		skew = -skew
	}
	return t.Add(skew)
}

// unsavedCreate is the create a host answered without a stored config
// (generation 2 made a hog function instead, and sending it again makes
// another), kept in a file of the journal directory until the user deletes
// it: creates to that host are refused, at plan time where the project is
// known.
type unsavedCreate struct {
	Host    string    `json:"host"`
	At      time.Time `json:"at"`
	Request string    `json:"request"`
	Status  int       `json:"status"`
}

func unsavedFile(dir, host string) string {
	return filepath.Join(dir, "unsaved-"+shortHash(host)+".json")
}

// noteUnsaved remembers the create host answered without a stored config.
func (j *journal) noteUnsaved(host string, e *client.UnsavedError) {
	if j == nil || os.MkdirAll(j.dir, 0o700) != nil {
		return
	}
	b, _ := json.MarshalIndent(unsavedCreate{Host: host, At: time.Now().UTC(), Request: e.Method + " " + e.Path, Status: e.Status}, "", "  ")
	_ = os.WriteFile(unsavedFile(j.dir, host), append(b, '\n'), 0o600)
}

// RefuseUnsavedBefore returns why no create may be sent through meta's
// provider: its host answered one without storing a config before (nil:
// none did). Create and the plan of a create ask it.
func RefuseUnsavedBefore(meta *framework.ProviderData) error {
	if meta == nil || meta.Client == nil || meta.JournalDir == "" {
		return nil
	}
	name := unsavedFile(meta.JournalDir, meta.Client.Host())
	b, err := os.ReadFile(name) //nolint:gosec // G304: a file of the journal directory
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	e := &UnsavedBeforeError{File: name}
	_ = json.Unmarshal(b, &e.unsavedCreate) // a file cut short, or unreadable, still refuses
	if abs, err := filepath.Abs(name); err == nil {
		e.File = abs
	}
	return e
}

// UnsavedBeforeError is a create refused unsent: the host answered one
// without storing a config before, making a hog function instead.
type UnsavedBeforeError struct {
	unsavedCreate
	File string // the record; deleting it lets creates be sent again
}

func (e *UnsavedBeforeError) Error() string { return e.Explain() }

// Explain says what happened before, why nothing was sent, and what to do.
func (e *UnsavedBeforeError) Explain() string {
	before := "A create in this working directory and workspace was answered without a stored config"
	if e.Request != "" {
		before = fmt.Sprintf("A create in this working directory and workspace (%s, at %s) was answered %d %s without "+
			"a stored config", e.Request, e.At.Format(time.RFC3339), e.Status, http.StatusText(e.Status))
	}
	return fmt.Sprintf("%s: the service at %s no longer stores plugin configs (%s) and made a hog function "+
		"instead. Each create sent makes another hog function, which runs on every event too, so nothing was sent.\n\n"+
		"Remove this resource from the configuration, and manage the hog function with the official PostHog provider "+
		"(resource posthog_hog_function; the service lists it among the project's hog functions, with its id to "+
		"import). Configs that already exist can still be managed here: see %s.\n\n"+
		"Only if the service stores configs again (its operator moved it back to an older version), delete %s to "+
		"let this working directory send creates again.",
		before, e.Host, client.Generation2Since, client.MovingGuide, e.File)
}
