package createonce

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// A create that the service answered without storing a config (generation
// 2) made a hog function instead, and sending it again makes another. The
// journal directory remembers the host in a file of its own, and creates
// to that host are refused, at plan time where the project is known, until
// the user deletes the file.

// unsavedCreate is the create a host answered without a stored config.
type unsavedCreate struct {
	Host    string    `json:"host"`
	At      time.Time `json:"at"`
	Request string    `json:"request"`
	Status  int       `json:"status"`
}

// unsavedFile is where j remembers that host answered a create unsaved.
func (j *journal) unsavedFile(host string) string {
	return filepath.Join(j.dir, "unsaved-"+shortHash(host)+".json")
}

// noteUnsaved remembers the create host answered without a stored config.
func (j *journal) noteUnsaved(host string, e *client.UnsavedError) {
	if j == nil || os.MkdirAll(j.dir, 0o700) != nil {
		return
	}
	b, _ := json.MarshalIndent(unsavedCreate{Host: host, At: time.Now().UTC(), Request: e.Method + " " + e.Path, Status: e.Status}, "", "  ")
	_ = os.WriteFile(j.unsavedFile(host), append(b, '\n'), 0o600)
}

// refuseResend refuses a create to host after one it answered unsaved.
func (j *journal) refuseResend(host string) error {
	if j == nil {
		return nil
	}
	name := j.unsavedFile(host)
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

// RefuseUnsavedBefore returns why no create may be sent through meta's
// provider: its host answered one without storing a config before (nil:
// none did). The plan of a create asks it.
func RefuseUnsavedBefore(meta *framework.ProviderData) error {
	if meta == nil || meta.Client == nil || meta.JournalDir == "" {
		return nil
	}
	return journalOf(meta, meta.JournalDir).refuseResend(meta.Client.Host())
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
