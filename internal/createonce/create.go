// Package createonce makes the one POST of a config create, and never
// makes a config twice, nor takes one that another resource holds.
//
// The client never resends a POST that may have reached the service. When
// one fails that way (client.MayHaveApplied: a 502/503/504, a reset or a
// timeout after the request was written), the service may hold a config
// that no answer named; the service has no idempotency key, so nothing
// proves which config, if any, that POST made. Create looks: when a 502 or
// 503 answered and no config that holds what was sent was made since, it
// sends the request again; otherwise it fails naming the configs that
// match, for the user to import or remove. It never adopts one: that could
// take a config that another state created at the same moment.
//
// What can be proved is a config whose id an answer gave to a run that was
// then killed before Terraform stored it: the create journal (journal.go)
// of the working directory and workspace holds it, and the next create of
// exactly the same request adopts it instead of making a second one.
package createonce

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

const (
	// clockSkew is how far the service's clock may be from what the Date
	// headers of its answers let the client estimate (or, before any, from
	// this machine's).
	clockSkew = 2 * time.Second
	// noDateSkew stands in for it before any answer carried a Date.
	noDateSkew = 2 * time.Minute
	// stopGrace is how long a POST already under way may still run after
	// Terraform cancels the operation (Ctrl-C, or Terraform gone), so that
	// its answer, and the new config's id, reach the state or the journal.
	stopGrace = 15 * time.Second
	// DrainTimeout bounds Drain when Terraform is gone: the creates under
	// way have stopGrace to finish.
	DrainTimeout = stopGrace + 5*time.Second
)

// inFlight counts the creates under way, which Drain waits for.
var inFlight sync.WaitGroup

// Drain waits up to timeout for the creates under way to record what they
// made. The provider calls it before it exits because Terraform is gone.
func Drain(timeout time.Duration) {
	done := make(chan struct{})
	go func() { inFlight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(timeout):
	}
}

// ExitWhenOrphaned exits once Terraform, the parent, is gone (killed), as
// go-plugin would serve on; the creates under way first record what they
// made (Drain). On Unix an orphan is re-parented; elsewhere this never
// fires.
func ExitWhenOrphaned() {
	parent := os.Getppid()
	if parent <= 1 {
		return // started by init itself: nothing to watch
	}
	go func() {
		for range time.Tick(time.Second) {
			if os.Getppid() != parent {
				Drain(DrainTimeout)
				os.Exit(1)
			}
		}
	}()
}

// Request is a create: what the POST sends (Input), the plugin settings
// the config is to hold (Settings: Input.Config, or sent by the caller once
// the config exists), and the keys of Settings that are secret, whose
// values the journal never keeps.
type Request struct {
	Input      client.RecordInput
	Settings   client.Opt[json.RawMessage]
	SecretKeys []string
}

// fingerprint identifies what r makes, secret values aside.
func (r Request) fingerprint(host, project string, coll client.Collection) string {
	in := r.Input
	in.Config = client.Opt[json.RawMessage]{}
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
// or adopts the one a killed run of this working directory created with
// exactly this request (with a warning in diags).
func Create(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, req Request, diags *diag.Diagnostics) (*client.Record, error) {
	inFlight.Add(1)
	defer inFlight.Done()
	c := meta.Client
	j := journalOf(meta, meta.JournalDir)
	coll := string(k.Collection)
	fp := req.fingerprint(c.Host(), project, k.Collection)

	if rec, err := adopt(ctx, c, j, k, project, fp, req.Input, diags); rec != nil || err != nil {
		if rec != nil {
			meta.ReadCache().Invalidate(rec.ID) // found, not made: a page may show it as it was
		}
		return rec, err
	}

	reg := registryFor(c)
	gate := reg.gate(fp)
	for attempt := 0; ; attempt++ {
		sent := time.Now()
		seq := j.begin(c.Host(), project, coll, fp, sent)
		gate.RLock()
		rec, err := post(ctx, c, project, k.Collection, req.Input)
		if err == nil {
			reg.made(rec.ID)
		}
		gate.RUnlock()
		switch {
		case err == nil:
			j.created(seq, rec.ID)
			return rec, nil
		case !client.MayHaveApplied(err):
			j.settled(seq)
			return nil, err
		}
		// With every create of the same request settled, so that the
		// configs they made are known and not taken for this one's.
		gate.Lock()
		ids, lerr := candidates(ctx, c, k, project, req.Input, sent, time.Time{})
		gate.Unlock()
		ids = slices.DeleteFunc(ids, reg.isMade)
		if lerr == nil && len(ids) == 0 && answeredUnavailable(err) && attempt < c.MaxRetries() && ctx.Err() == nil {
			// Nothing was stored, and the answer says the request was
			// not being worked on: sending it again is safe.
			j.settled(seq)
			continue
		}
		// Left open: if this process is killed now, the next run warns of
		// the configs that match.
		return nil, lostAnswer(k, project, ids, lerr, err)
	}
}

// registry is what the creates of one client (one configured provider)
// share: the configs they made, and a gate per request, which a look for
// what a failed create of the request made holds alone.
type registry struct {
	mu    sync.Mutex
	ids   map[int64]bool
	gates map[string]*sync.RWMutex
}

var registries sync.Map // *client.Client -> *registry

func registryFor(c *client.Client) *registry {
	r, _ := registries.LoadOrStore(c, &registry{ids: map[int64]bool{}, gates: map[string]*sync.RWMutex{}})
	return r.(*registry) //nolint:forcetypeassert // only *registry is stored
}

func (r *registry) gate(fp string) *sync.RWMutex {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.gates[fp]
	if g == nil {
		g = new(sync.RWMutex)
		r.gates[fp] = g
	}
	return g
}

func (r *registry) made(id int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ids[id] = true
}

func (r *registry) isMade(id int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ids[id]
}

// answeredUnavailable reports whether a create failed with a 502 or 503
// answer: a proxy or the service saying it could not take the request,
// which a list that shows no config from it settles. A 504, a reset or a
// timeout may leave the request at work on the service, where it can still
// store the config after the list.
func answeredUnavailable(err error) bool {
	s := client.StatusOf(err)
	return s == http.StatusBadGateway || s == http.StatusServiceUnavailable
}

// post makes one create call (the client retries it only while it provably
// did not arrive). Once under way it is not cut short by Terraform's stop:
// see stopGrace.
func post(ctx context.Context, c *client.Client, project string, coll client.Collection, in client.RecordInput) (*client.Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pctx, cancel := withStopGrace(ctx, stopGrace)
	defer cancel()
	return c.Create(pctx, project, coll, in)
}

// withStopGrace returns a context for a request that outlives the
// cancellation of ctx by up to grace; ctx's deadline still applies.
func withStopGrace(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	detached := context.WithoutCancel(ctx)
	var cancel context.CancelFunc
	if dl, ok := ctx.Deadline(); ok {
		detached, cancel = context.WithDeadline(detached, dl)
	} else {
		detached, cancel = context.WithCancel(detached)
	}
	stop := context.AfterFunc(ctx, func() {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			cancel()
			return
		}
		time.AfterFunc(grace, cancel)
	})
	return detached, func() { stop(); cancel() }
}

// LostAnswerError is a create whose answer was lost on the way (Err): it
// may have made a config, and Note says which configs match.
type LostAnswerError struct {
	Err  error
	Note string
}

func (e *LostAnswerError) Error() string { return e.Err.Error() + "\n\n" + e.Note }
func (e *LostAnswerError) Unwrap() error { return e.Err }

// lostAnswer is the error of a create whose answer was lost on the way:
// it names the configs ids that match what was sent, created since the
// POST (lerr: listing them failed).
func lostAnswer(k kind.Kind, project string, ids []int64, lerr, err error) error {
	var found string
	switch {
	case lerr != nil:
		found = fmt.Sprintf("Listing the project's %ss to find it failed too: %s", k.Noun, framework.DescribeError(lerr))
	case len(ids) == 0:
		found = fmt.Sprintf("No %s that holds these settings was created since: applying again creates it.", k.Noun)
	default:
		found = fmt.Sprintf("The service has %s %s, created since with these settings. If that is this one, import it "+
			"into this resource (an import block with id \"%s/<id>\") rather than applying again, which would create "+
			"a second.", k.Noun, joinIDs(ids), project)
	}
	return &LostAnswerError{Err: err, Note: fmt.Sprintf("The create may have reached the service although its answer "+
		"was lost. It was not sent again, so as not to make a second %s, and nothing was saved in the state. %s", k.Noun, found)}
}

// candidates returns the active configs of project (in k's collection and
// the others) that hold everything in sends, created between after and
// before (zero: now) on the service's clock.
func candidates(ctx context.Context, c *client.Client, k kind.Kind, project string, in client.RecordInput, after, before time.Time) ([]int64, error) {
	from := serviceTime(c, after).Add(-skew(c))
	var to time.Time
	if !before.IsZero() {
		to = serviceTime(c, before).Add(skew(c))
	}
	var ids []int64
	for _, kk := range k.OwnFirst() {
		recs, err := c.ListAll(ctx, project, kk.Collection)
		if err != nil {
			return nil, err
		}
		for i := range recs {
			if createdWithin(recs[i].CreatedAt, from, to) && madeBy(&recs[i], in) {
				ids = append(ids, recs[i].ID)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// serviceTime is the service's clock at the local moment t, as the answers'
// Date headers tell it.
func serviceTime(c *client.Client, t time.Time) time.Time {
	if st, ok := c.ServiceTime(t); ok {
		return st
	}
	return t
}

func skew(c *client.Client) time.Duration {
	if _, ok := c.ServiceTime(time.Now()); ok {
		return clockSkew
	}
	return noDateSkew
}

// createdWithin reports whether the service's created_at lies within
// [after, before] (before zero: no upper bound). An unreadable time never
// matches.
func createdWithin(createdAt string, after, before time.Time) bool {
	t, err := time.Parse(time.RFC3339Nano, createdAt)
	if err != nil {
		return false
	}
	return !t.Before(after) && (before.IsZero() || !t.After(before))
}

func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}

// adopt settles the entries a killed run of this working directory left
// for creates of fingerprint fp: the first whose config is still active
// and holds what in sends becomes this create's (its settings sent again,
// with a warning in diags). An entry without an id (the killed run never
// saw the answer) cannot say which config its POST made: the configs that
// match are named in a warning, and this create goes on. nil, nil: POST.
func adopt(ctx context.Context, c *client.Client, j *journal, k kind.Kind, project, fp string, in client.RecordInput,
	diags *diag.Diagnostics,
) (*client.Record, error) {
	for _, e := range j.matching(ctx, c.Host(), project, string(k.Collection), fp) {
		if e.ID == 0 {
			if j.take(ctx, e) {
				warnUnanswered(ctx, c, j, k, project, in, e, diags)
			}
			continue
		}
		rec, err := orphanConfig(ctx, c, k, project, in, e.ID)
		if err != nil {
			return nil, fmt.Errorf("a previous run in this working directory was killed after creating %s %d "+
				"with these settings, and reading it failed: %w", k.Noun, e.ID, err)
		}
		if !j.take(ctx, e) || rec == nil {
			continue
		}
		tflog.Warn(ctx, "adopted a config a killed run created", map[string]any{"config_id": rec.ID})
		diags.AddWarning(fmt.Sprintf("Adopted %s %d, created by a killed run", k.Noun, rec.ID),
			fmt.Sprintf("A previous run in this working directory and workspace created %s %d with exactly these "+
				"settings at %s, but was killed before Terraform stored it in the state. This resource now manages "+
				"it instead of creating a second one.", k.Noun, rec.ID, e.Sent.Format(time.RFC3339)))
		registryFor(c).made(rec.ID)
		return resendSettings(ctx, c, k, project, rec, in)
	}
	return nil, nil
}

// orphanConfig reads config id, the orphan of a killed run, and returns it
// if it is active and still holds what in sends.
func orphanConfig(ctx context.Context, c *client.Client, k kind.Kind, project string, in client.RecordInput, id int64) (*client.Record, error) {
	for _, kk := range k.OwnFirst() {
		rec, err := c.Get(ctx, project, kk.Collection, id)
		if client.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !madeBy(rec, in) || !matchesFallback(rec, in) {
			return nil, nil
		}
		return rec, nil
	}
	return nil, nil
}

// warnUnanswered warns of the configs an unanswered create of a killed run
// may have made: those that match, created after its POST and before its
// provider ended (by then this process had its file), one warning each.
func warnUnanswered(ctx context.Context, c *client.Client, j *journal, k kind.Kind, project string, in client.RecordInput,
	e *entry, diags *diag.Diagnostics,
) {
	before := e.Sent.Add(framework.DefaultWriteTimeout)
	if j.loadedAt.Before(before) {
		before = j.loadedAt
	}
	ids, err := candidates(ctx, c, k, project, in, e.Sent, before)
	if err != nil {
		return
	}
	for _, id := range ids {
		diags.AddWarning(fmt.Sprintf("%s %d may be left over from a killed run", upperFirst(k.Noun), id),
			fmt.Sprintf("A previous run in this working directory and workspace was killed at %s while creating a %s "+
				"with these settings, before its answer came. %s %d, created then with these settings, may be what it "+
				"made, or another state's. This resource was created anew; if %s %d is a leftover, delete it.",
				e.Sent.Format(time.RFC3339), k.Noun, upperFirst(k.Noun), id, k.Noun, id))
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// resendSettings sends the plugin settings of in again to a config that was
// adopted rather than created: secret values are masked in what the service
// shows, so only sending them makes sure the config holds this resource's.
func resendSettings(ctx context.Context, c *client.Client, k kind.Kind, project string, rec *client.Record, in client.RecordInput) (*client.Record, error) {
	if _, ok := in.Config.Get(); !ok {
		return rec, nil
	}
	if shows, known := k.Shows(rec); known && !shows {
		return rec, nil // another kind's config: Create refuses it anyway
	}
	updated, err := c.Update(ctx, project, k.Collection, rec.ID, client.RecordInput{Config: in.Config})
	if err != nil {
		return nil, fmt.Errorf("%s %d, created by a killed run, was adopted, but setting its plugin settings failed: %w", k.Noun, rec.ID, err)
	}
	return updated, nil
}

// madeBy reports whether rec may be the config a create of in made: it
// holds everything in sends, or all of it but the settings while it holds
// none, as a create leaves it whose settings were to follow in a PATCH
// once the config exists (the caller sends them so until the service's
// schema tells it may) when it was cut off before that PATCH.
func madeBy(rec *client.Record, in client.RecordInput) bool {
	if matchesSent(rec, in) {
		return true
	}
	if _, ok := in.Config.Get(); !ok {
		return false
	}
	stored, _ := record.ParseSettings(string(rec.Config))
	posted := in
	posted.Config = client.Opt[json.RawMessage]{}
	return len(stored) == 0 && matchesSent(rec, posted)
}

// matchesSent reports whether rec is an active config holding everything
// in sends. A name or description left out is checked by matchesFallback.
func matchesSent(rec *client.Record, in client.RecordInput) bool {
	if rec.Deleted {
		return false
	}
	if v, _ := in.Plugin.Get(); rec.Plugin != v {
		return false
	}
	if v, _ := in.Enabled.Get(); rec.Enabled != v { // left out: the service's false
		return false
	}
	if v, ok := in.Order.Get(); ok && rec.Order != v {
		return false
	}
	for _, f := range []struct {
		sent client.Opt[string]
		got  *string
	}{{in.Name, rec.Name}, {in.Description, rec.Description}} {
		// The service strips what it stores; a blank is checked by
		// matchesFallback, as the service shows the plugin's for it.
		if v, ok := f.sent.Get(); ok && !record.IsBlank(v) && (f.got == nil || *f.got != record.Stored(v)) {
			return false
		}
	}
	if v, ok := in.Filters.Get(); ok {
		if jsonvalue.IsNull(rec.Filters) || !record.FiltersEqual(string(v), string(rec.Filters)) {
			return false
		}
	} else if !jsonvalue.IsNull(rec.Filters) {
		return false
	}
	if v, ok := in.Config.Get(); ok {
		// Not an object (or null): nil, which holds only what may be absent.
		stored, _ := record.ParseSettings(string(rec.Config))
		if !record.HoldsSettings(stored, string(v), record.AsStored) {
			return false
		}
	}
	return true
}

// matchesFallback checks a name or description left out of the create, or
// sent blank: the service then shows the plugin's own (when plugin_info
// tells it, or the value is empty, which is always the plugin's).
func matchesFallback(rec *client.Record, in client.RecordInput) bool {
	p := record.PluginOf(rec.PluginInfo)
	for _, f := range []struct {
		sent   client.Opt[string]
		got    *string
		plugin record.OwnText
	}{{in.Name, rec.Name, p.Name}, {in.Description, rec.Description, p.Description}} {
		if v, sent := f.sent.Get(); sent && !record.IsBlank(v) {
			continue // checked by matchesSent
		}
		if isPlugins, told := f.plugin.Shows(f.got); told && !isPlugins {
			return false
		}
	}
	return true
}

// ConfirmInState settles the journal entry of the config in a resource's
// prior state: Terraform holds it, so no create may adopt it.
func ConfirmInState(ctx context.Context, meta *framework.ProviderData, state tfsdk.State) {
	if meta == nil || meta.Client == nil || meta.JournalDir == "" || state.Raw.IsNull() {
		return
	}
	// A raw read: every plan of every config passes here.
	id := framework.RawInt64(framework.RawAttributes(state.Raw)["id"])
	if !framework.IsSet(id) {
		return
	}
	journalOf(meta, meta.JournalDir).confirm(ctx, meta.Client.Host(), id.ValueInt64())
}
