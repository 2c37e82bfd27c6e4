// Package createonce creates pipeline config records without ever creating
// one twice. Its API is narrow: Create makes a record, ConfirmInState (from
// every ModifyPlan) tells it which records Terraform's state holds; the
// process-wide state behind them (claims, gates, the journal) is its own.
//
// The client never resends a POST that may have reached the service. When
// one fails that way (client.MayHaveApplied: a 502/503/504, a reset or a
// timeout after the request was written), the config may exist although no
// answer said so. Create then looks for it before trying again: a config of
// the project that holds everything that was sent, was created since just
// before the POST, and is not claimed by another create of this provider
// (nor known to the create journal, journal.go). It adopts that config, or
// POSTs again, at most max_retries more times, when there is none.
//
// A service that no longer stores configs (generation 2: it makes a hog
// function of every create, and shows configs without filters) is never
// sent a create again after a lost answer, once the provider has seen such
// a config (DropsFilters): the search cannot find what was never stored.
// An answer that says a create stored nothing (client.UnsavedError) is no
// lost answer: no search, no second POST, and no journal entry left.
//
// Identical configs created in parallel (count = 10 of the same settings)
// make "the config that matches" ambiguous. Creates of the same settings
// therefore share a gate: their POSTs run concurrently (read side), while a
// search holds it exclusively, so that during the search every other POST
// of those settings has either claimed its config or not begun. Each config
// found is claimed by exactly one create; identical configs are
// interchangeable, so which create gets which does not matter.
package createonce

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

const (
	// dateUncertainty is how far the service's clock may be from what the
	// Date headers of its answers let the client estimate (client.ServiceTime).
	dateUncertainty = 2 * time.Second
	// clockSkew stands in for it before any answer carried a Date: how far
	// the service's clock may be from this machine's.
	clockSkew = 2 * time.Minute
	// stopGrace is how long a POST already under way may still run after
	// Terraform cancels the operation (Ctrl-C stops the provider), so that
	// its answer, and the new config's id, reach the state.
	stopGrace = 15 * time.Second
)

// createRegistry is what the creates of one client (one configured
// provider: Terraform runs a process per provider configuration) share:
// the configs claimed so far and the gates per settings.
type createRegistry struct {
	mu      sync.Mutex
	claimed map[int64]bool
	gates   map[string]*sync.RWMutex
}

// registries holds a createRegistry per client. (Not per host: in a test
// process a later local API may get the port of an earlier one, and its
// configs the ids the earlier one's creates claimed.)
var registries sync.Map

func registryFor(c *client.Client) *createRegistry {
	if r, ok := registries.Load(c); ok {
		return r.(*createRegistry) //nolint:forcetypeassert // only *createRegistry is stored
	}
	r, _ := registries.LoadOrStore(c, &createRegistry{claimed: map[int64]bool{}, gates: map[string]*sync.RWMutex{}})
	return r.(*createRegistry) //nolint:forcetypeassert // only *createRegistry is stored
}

// gate returns the gate of creates with the fingerprint fp.
func (g *createRegistry) gate(fp string) *sync.RWMutex {
	g.mu.Lock()
	defer g.mu.Unlock()
	l := g.gates[fp]
	if l == nil {
		l = new(sync.RWMutex)
		g.gates[fp] = l
	}
	return l
}

// claim records that a create of this process owns config id; it reports
// false when another one already does.
func (g *createRegistry) claim(id int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.claimed[id] {
		return false
	}
	g.claimed[id] = true
	return true
}

func (g *createRegistry) isClaimed(id int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.claimed[id]
}

// createFingerprint identifies what a create sends, without the plugin
// settings (config), whose secrets must not end up in the journal: creates
// that differ only in config share a gate, and the search still tells
// their configs apart.
func createFingerprint(host, project string, coll client.Collection, in client.RecordInput) string {
	body, _ := json.Marshal(in) // Config is not part of the JSON form
	sum := sha256.Sum256([]byte(strings.Join([]string{host, project, string(coll), string(body)}, "\x00")))
	return hex.EncodeToString(sum[:])
}

// Create creates the config in sends in project's collection of kind k,
// never twice: an answer lost on the way is recovered by finding the config
// (see the package comment), and configs a killed run created without
// Terraform storing them are adopted from the create journal. Adoptions are
// reported as warnings in diags.
func Create(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, in client.RecordInput, diags *diag.Diagnostics) (*client.Record, error) {
	return creator{kind: k}.create(ctx, meta, project, in, diags)
}

// creator is the creates of one kind's records.
type creator struct {
	kind kind.Kind
}

func (r creator) create(ctx context.Context, meta *framework.ProviderData, project string, in client.RecordInput, diags *diag.Diagnostics) (*client.Record, error) {
	c := meta.Client
	reg := registryFor(c)
	fp := createFingerprint(c.Host(), project, r.kind.Collection, in)
	gate := reg.gate(fp)
	jr := defaultJournal()

	if rec, err := r.adoptOrphan(ctx, c, jr, reg, gate, project, fp, in, diags); rec != nil || err != nil {
		if rec != nil {
			meta.ReadCache().Invalidate(rec.ID) // found, not made: a page may show it as it was
		}
		return rec, err
	}

	since := time.Now()
	entry := jr.begin(c.Host(), project, r.kind.Collection, fp, since)
	gate.RLock()
	rec, err := r.post(ctx, c, project, in)
	if err == nil {
		reg.claim(rec.ID)
	}
	gate.RUnlock()
	if err == nil || !client.MayHaveApplied(err) || ctx.Err() != nil {
		return r.settle(entry, rec, err)
	}

	// The config may exist. Search with every other POST of these settings
	// settled, then POST again if it is not there.
	gate.Lock()
	defer gate.Unlock()
	for retry := 1; ; retry++ {
		tflog.Warn(ctx, "the create may have been applied although it failed; looking for the config before trying again",
			map[string]any{"error": err.Error()})
		found, serr := r.findCreated(ctx, c, reg, jr, project, in, since, 0)
		if serr != nil {
			return r.settle(entry, nil, fmt.Errorf("%w\n\nThe create may have been applied; looking for the config failed too: %w", err, serr))
		}
		if found != nil {
			tflog.Info(ctx, "found the config a create with a lost answer made; using it", map[string]any{"config_id": found.ID})
			// The journal keeps it even if what follows fails: the next
			// run then adopts it rather than create another.
			entry.created(found.ID)
			meta.ReadCache().Invalidate(found.ID)
			return r.resendSettings(ctx, c, project, found, in)
		}
		if retry > c.MaxRetries() {
			return r.settle(entry, nil, fmt.Errorf("%w (no config was found that the create made; gave up after %d creates)", err, retry))
		}
		if c.DropsFilters(r.kind.Collection) {
			// A service without filters (generation 2) saves no config and
			// makes a hog function of every create: nothing to find, and a
			// second POST would make a second hog function.
			return r.settle(entry, nil, fmt.Errorf("%w\n\nThe create was not sent again: this service no longer "+
				"stores configs (it shows them without filters) and makes a hog function of every create, so the lost "+
				"one may have made one; look among the project's hog functions", err))
		}
		rec, err = r.post(ctx, c, project, in)
		if err == nil {
			reg.claim(rec.ID)
		}
		if err == nil || !client.MayHaveApplied(err) || ctx.Err() != nil {
			return r.settle(entry, rec, err)
		}
	}
}

// post makes one create call (the client retries it only while it provably
// did not arrive). Once under way it is not cut short by Terraform's stop:
// see stopGrace.
func (r creator) post(ctx context.Context, c *client.Client, project string, in client.RecordInput) (*client.Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pctx, cancel := withStopGrace(ctx, stopGrace)
	defer cancel()
	return c.Create(pctx, project, r.kind.Collection, in)
}

// settle records the outcome of a create in its journal entry: the config's
// id, or, when nothing was created for sure, no entry at all. A failure
// that may have created the config keeps the entry pending for the next
// run to resolve.
func (r creator) settle(entry *journalEntry, rec *client.Record, err error) (*client.Record, error) {
	switch {
	case err == nil:
		entry.created(rec.ID)
	case !client.MayHaveApplied(err):
		entry.drop()
	}
	return rec, err
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

// serviceTimeFrom is the earliest the service's clock may have read at the
// local moment t.
func serviceTimeFrom(c *client.Client, t time.Time) time.Time {
	if st, ok := c.ServiceTime(t); ok {
		return st.Add(-dateUncertainty)
	}
	return t.Add(-clockSkew)
}

// findCreated looks for a config a create of in sent at the local moment
// since made: one created from then on (within window, when not zero), on
// the service's clock, that no create of this process claimed and the
// journal does not know. It claims and returns the first one found, oldest
// first, or nil. It looks in the resource's collection first, then in the
// others: a config of a plugin of another kind shows only there.
func (r creator) findCreated(ctx context.Context, c *client.Client, reg *createRegistry, jr *createJournal,
	project string, in client.RecordInput, since time.Time, window time.Duration,
) (*client.Record, error) {
	known := jr.knownIDs()
	for _, k := range r.kind.OwnFirst() {
		recs, err := c.ListAll(ctx, project, k.Collection)
		if err != nil {
			return nil, err
		}
		// After an answer, so that its Date tells the service's clock.
		after, before := serviceTimeFrom(c, since), time.Time{}
		if window > 0 {
			before = after.Add(window)
		}
		slices.SortFunc(recs, func(a, b client.Record) int { return cmp.Compare(a.ID, b.ID) })
		for i := range recs {
			rec := &recs[i]
			if known[rec.ID] || reg.isClaimed(rec.ID) || !createdWithin(rec.CreatedAt, after, before) || !matchesSent(rec, in) {
				continue
			}
			// A list page has no plugin_info: retrieve the config to check
			// a name or description left to the plugin.
			full, err := c.Get(ctx, project, k.Collection, rec.ID)
			if client.IsNotFound(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if !matchesSent(full, in) || !matchesFallback(full, in) || !reg.claim(full.ID) {
				continue
			}
			return full, nil
		}
	}
	return nil, nil
}

// resendSettings sends the plugin settings of in again to a config that was
// found rather than created: secret values are masked in what the service
// shows, so only sending them makes sure the config holds this resource's.
func (r creator) resendSettings(ctx context.Context, c *client.Client, project string, rec *client.Record, in client.RecordInput) (*client.Record, error) {
	if _, ok := in.Config.Get(); !ok {
		return rec, nil
	}
	if shows, known := r.kind.Shows(rec); known && !shows {
		return rec, nil // another kind's config: Create refuses it anyway
	}
	updated, err := c.Update(ctx, project, r.kind.Collection, rec.ID, client.RecordInput{Config: in.Config})
	if err != nil {
		return nil, fmt.Errorf("config %d, made by a create whose answer was lost, was found, but setting its plugin settings failed: %w", rec.ID, err)
	}
	return updated, nil
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
