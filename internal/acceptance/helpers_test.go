package acceptance

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// answerDelay is how long slowAnswers holds an answer back.
const answerDelay = 400 * time.Millisecond

// slowAnswers handles each write at once and holds its answer back for
// answerDelay: a write under way when Terraform is killed has been applied,
// as on a real service, and only its answer is lost.
func slowAnswers() func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			select {
			case <-time.After(answerDelay):
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
