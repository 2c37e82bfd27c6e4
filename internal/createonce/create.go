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
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

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
	c := meta.Client
	j := journalOf(meta, meta.JournalDir)
	if err := j.refuseResend(c.Host()); err != nil {
		return nil, err
	}
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

// HandOver records that Terraform gets config id, which Create returned:
// a state may hold it from now on, so no later create adopts it. The caller
// defers it once Create succeeded.
func HandOver(meta *framework.ProviderData, id int64) {
	if meta != nil && meta.JournalDir != "" {
		journalOf(meta, meta.JournalDir).handOver(id)
	}
}

// ConfirmInState settles the journal entry of the config in a resource's
// state, which a plan or a refresh reads: a state holds it, so no create may
// adopt it, nor warn of it.
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
			"with id \"%s/<id>\"); one that a state holds is that state's.", k.Noun, joinIDs(ids), k.Noun, project)
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

func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}
