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
	// clockSkew is how far off the service's clock, as the client estimates
	// it, may be; noDateSkew before any answer had a Date.
	clockSkew  = 2 * time.Second
	noDateSkew = 2 * time.Minute
	// stopGrace is how long a POST under way outlives Terraform's stop, so
	// that the new config's id reaches the state or the journal.
	stopGrace = 15 * time.Second
)

// inFlight counts the creates under way.
var inFlight sync.WaitGroup

// ExitWhenOrphaned exits once Terraform, the parent, is gone (killed),
// where go-plugin would serve on, once the creates under way have recorded
// what they made. Only Unix re-parents an orphan.
func ExitWhenOrphaned() {
	parent := os.Getppid()
	if parent <= 1 {
		return // started by init itself: nothing to watch
	}
	go func() {
		for range time.Tick(time.Second) {
			if os.Getppid() != parent {
				done := make(chan struct{})
				go func() { inFlight.Wait(); close(done) }()
				select {
				case <-done:
				case <-time.After(stopGrace + 5*time.Second):
				}
				os.Exit(1)
			}
		}
	}()
}

// Request is a create: what the POST sends, the plugin settings the config
// is to hold (Input.Config, or sent later by the caller), and which are
// secret (the journal keeps no secret value).
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
// or adopts, with a warning, the one a killed run created with it.
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
	for attempt := 0; ; attempt++ {
		sent := time.Now()
		seq := j.begin(c.Host(), project, coll, fp, sent)
		reg.gate.RLock()
		rec, err := post(ctx, c, project, k.Collection, req.Input)
		if err == nil {
			reg.made.Store(rec.ID, true)
		}
		reg.gate.RUnlock()
		switch {
		case err == nil:
			j.write(event{Seq: seq, ID: rec.ID})
			return rec, nil
		case !client.MayHaveApplied(err):
			j.write(event{Seq: seq, Done: true})
			return nil, err
		}
		// With no other create under way, so that the configs they made are
		// known and not taken for this one's.
		reg.gate.Lock()
		ids, lerr := candidates(ctx, c, k, project, req.Input, sent, time.Time{})
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

// post makes one create call, which outlives Terraform's stop (a
// cancellation of ctx) by up to stopGrace; ctx's deadline still applies.
func post(ctx context.Context, c *client.Client, project string, coll client.Collection, in client.RecordInput) (*client.Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	if dl, ok := ctx.Deadline(); ok {
		var cancelAtDeadline context.CancelFunc
		pctx, cancelAtDeadline = context.WithDeadline(pctx, dl)
		defer cancelAtDeadline()
	}
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(stopGrace, cancel) })
	defer stop()
	return c.Create(pctx, project, coll, in)
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
// listing them failed).
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

// candidates returns the active configs of project (any collection) that
// hold what in sends, created between after and before (zero: now) on the
// service's clock.
func candidates(ctx context.Context, c *client.Client, k kind.Kind, project string, in client.RecordInput, after, before time.Time) ([]int64, error) {
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
			if err == nil && !t.Before(from) && (to.IsZero() || !t.After(to)) && madeBy(&recs[i], in) {
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

func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}

// adopt settles the open entries of killed runs for creates of fp: the
// first whose config still holds what in sends becomes this create's; an
// entry without an id proves nothing, but earns a warning. nil, nil: POST.
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
		registryFor(c).made.Store(rec.ID, true)
		return resendSettings(ctx, c, k, project, rec, in)
	}
	return nil, nil
}

// orphanConfig returns config id, a killed run's orphan, if it is active
// and still holds what in sends.
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

// warnUnanswered warns of each config an unanswered create of a killed run
// may have made: those that match, created between its POST and its end.
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
	noun := strings.ToUpper(k.Noun[:1]) + k.Noun[1:]
	for _, id := range ids {
		diags.AddWarning(fmt.Sprintf("%s %d may be left over from a killed run", noun, id),
			fmt.Sprintf("A previous run in this working directory and workspace was killed at %s while creating a %s "+
				"with these settings, before its answer came. %s %d, created then with these settings, may be what it "+
				"made, or another state's. This resource was created anew; if %s %d is a leftover, delete it.",
				e.Sent.Format(time.RFC3339), k.Noun, noun, id, k.Noun, id))
	}
}

// resendSettings sends in's plugin settings again to an adopted config:
// the service masks secrets, so only that makes sure it holds these.
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

// madeBy reports whether rec may be the config a create of in made: an
// active config holding everything in sends. A name or description left out
// is checked by matchesFallback.
func madeBy(rec *client.Record, in client.RecordInput) bool {
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
	// A service without filters (every version since mid-August 2024)
	// drops those sent: nothing to match.
	if v, ok := in.Filters.Get(); ok && !rec.FiltersOmitted() {
		if jsonvalue.IsNull(rec.Filters) || !record.FiltersEqual(string(v), string(rec.Filters)) {
			return false
		}
	} else if !ok && !jsonvalue.IsNull(rec.Filters) {
		return false
	}
	if v, ok := in.Config.Get(); ok {
		// Not an object (or null): nil. None at all may be a create whose
		// settings were to follow in a PATCH, cut off before it.
		stored, _ := record.ParseSettings(string(rec.Config))
		if len(stored) > 0 && !record.HoldsSettings(stored, string(v), record.AsStored) {
			return false
		}
	}
	return true
}

// matchesFallback checks a name or description left out or sent blank:
// the service shows the plugin's own for it (when plugin_info tells it).
func matchesFallback(rec *client.Record, in client.RecordInput) bool {
	p := record.PluginOf(rec.PluginInfo)
	for _, f := range []struct {
		sent   client.Opt[string]
		got    *string
		plugin record.OwnText
	}{{in.Name, rec.Name, p.Name}, {in.Description, rec.Description, p.Description}} {
		if v, sent := f.sent.Get(); sent && !record.IsBlank(v) {
			continue // checked by madeBy
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
