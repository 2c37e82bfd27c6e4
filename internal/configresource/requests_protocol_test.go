package configresource_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// stripCapabilities rewrites answers as a service whose plugin_info lacks
// the plugin's capabilities would send them, so that the provider cannot
// tell a new config's collection from the create answer.
func stripCapabilities(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		var obj map[string]any
		if json.Unmarshal(body, &obj) == nil {
			if info, ok := obj["plugin_info"].(map[string]any); ok {
				delete(info, "capabilities")
				body, _ = json.Marshal(obj)
			}
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

// TestConfigResource_requests counts the requests of each operation against
// a local API of the test's own: create is one POST (plus one GET only when
// plugin_info does not tell the plugin's kind, and the plan's look at the
// project's first record while nothing told whether the service stores
// configs), an update one PATCH with
// only the changed fields, a destroy one PATCH {"deleted": true}. A create
// with a plugin of the other kind deletes what it created, also when the
// plugin's kind is not in plugin_info.
func TestConfigResource_requests(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		for _, strip := range []bool{false, true} {
			t.Run(fmt.Sprintf("capabilities_hidden=%v", strip), func(t *testing.T) {
				t.Parallel()
				var log acctest.RequestLog
				var bodies bodyLog
				host, _ := acctest.IsolatedAPI(t, func(h http.Handler) http.Handler {
					if strip {
						h = stripCapabilities(h)
					}
					return bodies.wrap(log.Wrap(h))
				})
				srv := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
				coll := "/api/projects/1/" + string(tc.Kind.Collection) + "/"
				expect := func(step string, want ...string) {
					t.Helper()
					if got := log.Take(); !slices.Equal(got, want) {
						t.Errorf("%s: requests %q, want %q", step, got, want)
					}
				}
				num := func(n int64) tftypes.Value { return tftypes.NewValue(tftypes.Number, n) }

				created := srv.Apply(t, tc.TypeName, nil, nil, map[string]tftypes.Value{"plugin": num(tc.Plugins[0])})
				acctest.FailOnDiagnostics(t, "create", created.Diagnostics)
				id := stateID(t, srv, tc.TypeName, created.NewState)
				path := coll + strconv.FormatInt(id, 10) + "/"
				// The plan looks at the first record of the collection, then
				// of the other (the project is empty): nothing told yet
				// whether the service stores configs.
				other := "/api/projects/1/" + string(otherCollection(tc)) + "/"
				if strip {
					expect("create", "GET "+coll, "GET "+other, "POST "+coll, "GET "+path)
				} else {
					expect("create", "GET "+coll, "GET "+other, "POST "+coll)
				}
				if got, want := bodies.take(), `{"plugin":`+strconv.FormatInt(tc.Plugins[0], 10)+`,"enabled":false,"order":0}`; got != want {
					t.Errorf("create body %s, want %s", got, want)
				}

				updated := srv.Apply(t, tc.TypeName, created.NewState, created.NewIdentity, map[string]tftypes.Value{
					"plugin": num(tc.Plugins[0]),
					"name":   tftypes.NewValue(tftypes.String, "renamed"),
				})
				acctest.FailOnDiagnostics(t, "update", updated.Diagnostics)
				expect("update", "PATCH "+path)
				if got, want := bodies.take(), `{"name":"renamed"}`; got != want {
					t.Errorf("update body %s, want %s", got, want)
				}

				destroyed := srv.Apply(t, tc.TypeName, updated.NewState, updated.NewIdentity, nil)
				acctest.FailOnDiagnostics(t, "destroy", destroyed.Diagnostics)
				expect("destroy", "PATCH "+path)
				if got, want := bodies.take(), `{"deleted":true}`; got != want {
					t.Errorf("destroy body %s, want %s", got, want)
				}

				// A plugin of the other kind: refused, and nothing left.
				wrong := srv.Apply(t, tc.TypeName, nil, nil, map[string]tftypes.Value{"plugin": num(tc.OtherPlugin)})
				if len(wrong.Diagnostics) == 0 || !strings.Contains(wrong.Diagnostics[0].Detail, tc.OtherType) ||
					!strings.Contains(wrong.Diagnostics[0].Detail, "deleted again") {
					t.Fatalf("wrong kind: diagnostics %v, want an error naming %s", wrong.Diagnostics, tc.OtherType)
				}
				reqs := log.Take()
				if len(reqs) < 2 || reqs[0] != "POST "+coll || !strings.HasPrefix(reqs[len(reqs)-1], "PATCH ") ||
					strings.Contains(reqs[len(reqs)-1], coll) {
					t.Errorf("wrong kind: requests %q, want a POST and a PATCH through the other collection", reqs)
				}
				if !strip && len(reqs) != 2 {
					t.Errorf("wrong kind: requests %q, want exactly a POST and a PATCH", reqs)
				}
			})
		}
	})
}

// stateID returns the id in an encoded state.
func stateID(t *testing.T, srv *acctest.ProviderServer, typeName string, state *tfprotov6.DynamicValue) int64 {
	t.Helper()
	var f big.Float
	if err := acctest.Attributes(t, state, srv.ResourceType(t, typeName))["id"].As(&f); err != nil {
		t.Fatal(err)
	}
	id, _ := f.Int64()
	return id
}

// bodyLog records the bodies of write requests.
type bodyLog struct {
	bodies []string
}

func (b *bodyLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost || r.Method == http.MethodPatch {
			var buf bytes.Buffer
			_, _ = buf.ReadFrom(r.Body)
			b.bodies = append(b.bodies, buf.String())
			r.Body = readCloser{bytes.NewReader(buf.Bytes())}
		}
		h.ServeHTTP(w, r)
	})
}

// take returns the bodies recorded since the last take, one per line.
func (b *bodyLog) take() string {
	out := strings.Join(b.bodies, "\n")
	b.bodies = nil
	return out
}

// takeAll returns the bodies recorded since the last take, one by one.
func (b *bodyLog) takeAll() []string {
	out := b.bodies
	b.bodies = nil
	return out
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// otherCollection is the collection that is not tc's.
func otherCollection(tc acctest.KindCase) client.Collection {
	if tc.Kind.Collection == client.Transformations {
		return client.ImportApps
	}
	return client.Transformations
}
