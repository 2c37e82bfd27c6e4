package acceptance

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// slowAnswers handles each write at once and holds its answer back for
// delay: a write under way when Terraform is killed has been applied, as
// on a real service, and only its answer is lost.
func slowAnswers(delay time.Duration) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
		})
	}
}

// activeIDs returns the active configs of project 1 in both collections,
// with how many of each id (more than one would be a listing bug).
func activeIDs(t *testing.T, host string) map[int64]int {
	t.Helper()
	ids, err := acctest.ActiveConfigs(acctest.ClientFor(t, host, localapi.KeyFull))
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// checkConverged checks that the state and the API hold the same n
// configs: no duplicate, no orphan.
func checkConverged(t *testing.T, state map[string]int64, host string, n int) {
	t.Helper()
	api := activeIDs(t, host)
	inState := map[int64]string{}
	for addr, id := range state {
		if other, dup := inState[id]; dup {
			t.Errorf("%s and %s both hold config %d", addr, other, id)
		}
		inState[id] = addr
	}
	for id := range api {
		if _, ok := inState[id]; !ok {
			t.Errorf("config %d is active on the API but in no state: an orphan or a duplicate", id)
		}
	}
	for id, addr := range inState {
		if api[id] == 0 {
			t.Errorf("%s holds config %d, which is not active on the API", addr, id)
		}
	}
	if len(state) != n || len(api) != n {
		t.Errorf("%d configs in the state and %d active on the API, want %d and %d", len(state), len(api), n, n)
	}
}

// jobCase is a public job of a seeded plugin of one kind (see the local
// API's README).
type jobCase struct {
	kind        string
	plugin      int64
	jobType     string
	payloadHCL  string
	payloadJSON string
}

var jobCases = []jobCase{
	{kind: "transformation", plugin: 2, jobType: "Reprocess", payloadHCL: `{ since = "2024-01-01" }`, payloadJSON: `{"since":"2024-01-01"}`},
	{kind: "import_app", plugin: 3, jobType: "Backfill", payloadHCL: `{ days = 7, dry_run = true }`, payloadJSON: `{"days":7,"dry_run":true}`},
}
