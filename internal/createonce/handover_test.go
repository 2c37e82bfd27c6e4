package createonce

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// leftover returns the config ids that "may be left over" warnings name.
func leftover(diags diag.Diagnostics) []string {
	var ids []string
	for _, d := range diags.Warnings() {
		if id, ok := strings.CutSuffix(d.Summary(), " may be left over from a killed run"); ok {
			ids = append(ids, id[strings.LastIndex(id, " ")+1:])
		}
	}
	return ids
}

// TestJournal_handedNeverAdopted: a config the provider gave to a live
// Terraform may be in a state (it may have been saved, then removed from
// this state and imported into another), so a killed run's entry of it is
// never adopted: the next create of the same request makes a config and
// names it, conditionally, in a warning. Given to a Terraform already gone,
// it is an orphan and adopted.
func TestJournal_handedNeverAdopted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		gone  bool
		adopt bool
	}{
		{"handed to a live Terraform", false, false},
		{"answered after Terraform was gone", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newRecoveryAPI(t, keep)
			dir := t.TempDir()
			req := geoIP("handed")
			killed := a.run(dir)
			first, _ := create(t, killed, req)
			if tc.gone {
				Orphan(dir)
			}
			HandOver(killed, first.ID)
			Release(dir, false)
			again, diags := create(t, a.run(dir), req)
			if got := again.ID == first.ID && adopted(diags); got != tc.adopt {
				t.Fatalf("config %d adopted: %v, want %v (got config %d, warnings %v)", first.ID, got, tc.adopt, again.ID, diags)
			}
			if !tc.adopt && (len(leftover(diags)) != 1 || leftover(diags)[0] != itoa(first.ID)) {
				t.Errorf("warnings %v, want one naming config %d as maybe left over", diags, first.ID)
			}
		})
	}
}

// TestJournal_settingsSentLaterAdopted: a killed run whose settings
// followed the POST (SetSettings) journaled how that left the config, so
// its orphan is adopted.
func TestJournal_settingsSentLaterAdopted(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, keep)
	dir := t.TempDir()
	req := geoIP("settings later")
	req.Settings = client.Some(json.RawMessage(`{"locale":"en"}`))
	killed := a.run(dir)
	first, _ := create(t, killed, req)
	if _, err := SetSettings(context.Background(), killed, framework.Transformation, "1", first.ID, req.Settings); err != nil {
		t.Fatal(err)
	}
	Release(dir, false)
	again, diags := create(t, a.run(dir), req)
	if again.ID != first.ID || !adopted(diags) {
		t.Errorf("got config %d (warnings %v), want %d adopted", again.ID, diags, first.ID)
	}
}

// TestJournal_copiesAdoptOnce: a copy of a working directory holds the
// same journal entries; whichever adopts an orphan first marks it on the
// service (its updated_at moves), and the other makes a config of its own
// and names the orphan in a warning.
func TestJournal_copiesAdoptOnce(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, keep)
	dir := t.TempDir()
	req := geoIP("copied")
	first, _ := create(t, a.run(dir), req)
	Release(dir, false)
	cp := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(cp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	viaCopy, diags := create(t, a.run(cp), req)
	if viaCopy.ID != first.ID || !adopted(diags) {
		t.Fatalf("the copy got config %d (warnings %v), want %d adopted", viaCopy.ID, diags, first.ID)
	}
	Release(cp, true)
	original, diags := create(t, a.run(dir), req)
	if original.ID == first.ID || adopted(diags) {
		t.Fatalf("config %d was adopted twice", first.ID)
	}
	if w := leftover(diags); len(w) != 1 || w[0] != itoa(first.ID) {
		t.Errorf("warnings %v, want one naming config %d", diags, first.ID)
	}
}

// TestJournal_failedClaimKept: an adoption whose write fails leaves the
// config in no state, so its run keeps its journal file even when it
// finishes, and the next run adopts the config.
func TestJournal_failedClaimKept(t *testing.T) {
	t.Parallel()
	var fail atomic.Bool
	var srv *localapi.Server
	a := newRecoveryAPI(t, func(r *http.Request) localapitest.Loss {
		// The adoption's write fails before the service acts on it.
		if fail.Load() && r.Method == http.MethodPatch {
			srv.SetFaults(localapi.Faults{Rate503: 1})
		} else {
			srv.SetFaults(localapi.Faults{})
		}
		return localapitest.Keep
	})
	srv = a.srv
	dir := t.TempDir()
	req := geoIP("claim failed")
	first, _ := create(t, a.run(dir), req)
	Release(dir, false)
	fail.Store(true)
	if _, err := Create(context.Background(), a.run(dir), framework.Transformation, "1", req, &diag.Diagnostics{}); err == nil {
		t.Fatal("the adoption's write failed, but the create succeeded")
	}
	Release(dir, true)
	fail.Store(false)
	again, diags := create(t, a.run(dir), req)
	if again.ID != first.ID || !adopted(diags) {
		t.Errorf("got config %d (warnings %v), want %d adopted", again.ID, diags, first.ID)
	}
}

// TestCreate_unsavedNotSentAgain: once the service answered a create
// without storing a config (generation 2: a hog function made instead),
// no create is sent to it again from this journal directory, until the
// record the error names is deleted.
func TestCreate_unsavedNotSentAgain(t *testing.T) {
	t.Parallel()
	a := newRecoveryAPI(t, keep)
	if err := a.srv.SetGeneration(localapi.Generation2); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Create(context.Background(), a.run(dir), framework.Transformation, "1", geoIP("unsaved"), &diag.Diagnostics{}); !client.IsUnsaved(err) {
		t.Fatalf("got %v, want the unsaved create", err)
	}
	Release(dir, true)
	meta := a.run(dir)
	var before *UnsavedBeforeError
	if !errors.As(RefuseUnsavedBefore(meta), &before) {
		t.Fatal("the plan of a create is not refused after an unsaved create")
	}
	for _, name := range []string{"same", "another"} {
		_, err := Create(context.Background(), meta, framework.Transformation, "1", geoIP(name), &diag.Diagnostics{})
		if !errors.As(err, &before) {
			t.Fatalf("got %v, want the create refused", err)
		}
	}
	if n := a.srv.Counters()["create"]; n != 1 {
		t.Errorf("%d creates sent, want 1", n)
	}
	if !strings.Contains(before.Error(), "delete "+before.File) {
		t.Errorf("the error does not say how to send creates again:\n%v", before)
	}
	if err := os.Remove(before.File); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(context.Background(), a.run(dir), framework.Transformation, "1", geoIP("again"), &diag.Diagnostics{}); !client.IsUnsaved(err) {
		t.Errorf("got %v after the record was deleted, want the create sent", err)
	}
}

// TestJournalDir: a working directory's journal is found through a
// symlink, by its real path and from a copy with its data directory; each
// workspace has its own, and so does each working directory sharing a data
// directory elsewhere.
func TestJournalDir(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	work := filepath.Join(root, "work")
	link := filepath.Join(root, "link")
	cp := filepath.Join(root, "copy")
	shared := filepath.Join(root, "shared")
	for _, d := range []string{filepath.Join(work, ".terraform"), filepath.Join(cp, ".terraform"), shared, filepath.Join(root, "other")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(work, link); err != nil {
		t.Fatal(err)
	}
	key := func(dir string) string { return filepath.Base(dir) }
	viaReal := JournalDir(work, ".terraform", "default")
	if viaReal == "" {
		t.Fatal("no journal directory")
	}
	for name, got := range map[string]string{
		"symlink": JournalDir(link, ".terraform", "default"),
		"copy":    JournalDir(cp, ".terraform", "default"),
	} {
		if key(got) != key(viaReal) {
			t.Errorf("through the %s the journal is %s, want %s", name, got, viaReal)
		}
	}
	if key(JournalDir(work, ".terraform", "blue")) == key(viaReal) {
		t.Error("two workspaces share a journal")
	}
	a, b := JournalDir(work, shared, "default"), JournalDir(filepath.Join(root, "other"), shared, "default")
	if a == "" || a == b {
		t.Errorf("two working directories sharing a data directory share a journal: %s", a)
	}
	if viaLink := JournalDir(link, shared, "default"); viaLink != a {
		t.Errorf("with a shared data directory, the symlink's journal is %s, want %s", viaLink, a)
	}
	if JournalDir(filepath.Join(root, "none"), ".terraform", "default") != "" {
		t.Error("a journal directory without a data directory")
	}
}
