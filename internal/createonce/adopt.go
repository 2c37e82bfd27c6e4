package createonce

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// orphan reports whether e's config is a killed run's orphan: answered, and
// never given to Terraform, so no state can hold it; and journaled as that
// run left it (entries of older providers say neither).
func (e *entry) orphan() bool { return e.ID != 0 && !e.Handed && e.Updated != "" }

// adopt settles the open entries of killed runs for creates of fp. The
// first orphan whose config the service shows as the killed run left it
// (holding what in sends, updated_at unchanged) becomes this create's; the
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
			case !e.orphan():
				warnLeftover(diags, k, e, handedNote)
				rec = nil
			case rec.UpdatedAt != e.Updated:
				warnLeftover(diags, k, e, fmt.Sprintf(touchedNote, rec.UpdatedAt, e.Updated))
				rec = nil
			default:
				rec, err = j.claim(ctx, c, k, project, shows, fp, rec, req.Input)
			}
		})
		if rec != nil || err != nil {
			if rec != nil {
				tflog.Warn(ctx, "adopted a config a killed run created", map[string]any{"config_id": rec.ID})
				diags.AddWarning(fmt.Sprintf("Adopted %s %d, created by a killed run", k.Noun, rec.ID),
					fmt.Sprintf("A previous run in this working directory and workspace created %s %d with exactly "+
						"these settings at %s, and was killed before it gave the config to Terraform, so no state holds "+
						"it. This resource now manages it instead of creating a second one.", k.Noun, rec.ID,
						e.Sent.Format(time.RFC3339)))
			}
			return rec, err
		}
	}
	return nil, nil
}

// claim makes config rec, a killed run's orphan whose entry this create
// took, this run's: journaled as this run's answer, then written to (its
// settings sent again, or an empty update), which moves its updated_at, so
// that a copy of this working directory, whose journal holds the same
// entry, sees that it was adopted.
func (j *journal) claim(ctx context.Context, c *client.Client, k framework.Kind, project string, shows client.Collection, fp string,
	rec *client.Record, in client.RecordInput,
) (*client.Record, error) {
	j.answered(j.begin(c.Host(), project, string(k.Collection), fp, time.Now()), rec.ID, rec.UpdatedAt)
	registryFor(c).made.Store(rec.ID, true)
	write := client.RecordInput{Settings: in.Settings}
	if shows != k.Collection {
		write = client.RecordInput{} // another kind's config: Create refuses it anyway
	}
	updated, err := outliveStop(ctx, func(ctx context.Context) (*client.Record, error) {
		return c.Update(ctx, project, shows, rec.ID, write)
	})
	if err != nil {
		j.keepOpen() // the entry stays for the next run: the config reached no state
		return nil, fmt.Errorf("%s %d, created by a killed run, was adopted, but writing to it failed: %w", k.Noun, rec.ID, err)
	}
	j.wrote(rec.ID, updated.UpdatedAt)
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
		ran := false
		withFileLock(ctx, name, time.Now().Add(lockWait), func(*os.File) { ran = true; fn() })
		if ran {
			return
		}
	}
	fn()
}
