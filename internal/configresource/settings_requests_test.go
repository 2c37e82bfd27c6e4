package configresource_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// received is a write request as the service parses it: its content type
// and either its form fields or its JSON body.
type received struct {
	method, mediaType string
	form              map[string]string // multipart fields (one value each)
	json              string
}

// formLog records write requests, parsed the way the service parses them.
type formLog struct {
	t    *testing.T
	mu   sync.Mutex
	reqs []received
}

func (l *formLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost && r.Method != http.MethodPatch {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			l.t.Errorf("reading the body: %v", err)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := received{method: r.Method}
		mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil {
			l.t.Errorf("content type %q: %v", r.Header.Get("Content-Type"), err)
		}
		rec.mediaType = mediaType
		if mediaType == "multipart/form-data" {
			form, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(1 << 20)
			if err != nil {
				l.t.Errorf("the form does not parse: %v", err)
			} else {
				rec.form = map[string]string{}
				for k, v := range form.Value {
					if len(v) != 1 {
						l.t.Errorf("field %s sent %d times", k, len(v))
					}
					rec.form[k] = v[0]
				}
				if len(form.File) != 0 {
					l.t.Errorf("files sent: %v", form.File)
				}
			}
		} else {
			rec.json = string(body)
		}
		l.mu.Lock()
		l.reqs = append(l.reqs, rec)
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *formLog) take() []received {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.reqs
	l.reqs = nil
	return out
}

// expectForm checks that the only write since the last take was a
// multipart request with exactly the fields want (config compared as JSON).
func (l *formLog) expectForm(t *testing.T, step, method string, want map[string]string) {
	t.Helper()
	reqs := l.take()
	if len(reqs) != 1 || reqs[0].method != method || reqs[0].mediaType != "multipart/form-data" {
		t.Fatalf("%s: writes %+v, want one multipart %s", step, reqs, method)
	}
	got := reqs[0].form
	if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		t.Errorf("%s: fields %v, want %v", step, got, want)
	}
	for k, w := range want {
		if k == "config" {
			if !python.Equal(json.RawMessage(got[k]), json.RawMessage(w)) {
				t.Errorf("%s: config %s, want %s", step, got[k], w)
			}
		} else if got[k] != w {
			t.Errorf("%s: field %s = %q, want %q", step, k, got[k], w)
		}
	}
}

// expectJSON checks that the only write since the last take was a JSON
// request with the body want.
func (l *formLog) expectJSON(t *testing.T, step, method, want string) {
	t.Helper()
	reqs := l.take()
	if len(reqs) != 1 || reqs[0].method != method || reqs[0].mediaType != "application/json" || reqs[0].json != want {
		t.Fatalf("%s: writes %+v, want one JSON %s %s", step, reqs, method, want)
	}
}

// TestConfigResource_settingsRequests checks the requests the provider
// builds for plugin settings, as the service receives them: settings go as
// the multipart field config (a JSON object string) with the other fields
// being written as plain form values; secrets only on create and when the
// version changes; requests without settings stay JSON. It calls the
// provider's protocol 6 server directly, against a local API of its own.
func TestConfigResource_settingsRequests(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		sc := settingsPlugins[tc.Kind.Name]
		log := &formLog{t: t}
		host, local := acctest.IsolatedAPI(t, log.wrap)
		srv := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
		str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
		num := func(n int64) tftypes.Value { return tftypes.NewValue(tftypes.Number, n) }
		obj := func(kv ...string) string {
			m := map[string]string{}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i]] = kv[i+1]
			}
			b, _ := json.Marshal(m)
			return string(b)
		}
		stored := func(step string, id int64, want string) {
			t.Helper()
			raw, err := local.StoredConfig(1, id)
			if err != nil || !python.Equal(raw, json.RawMessage(want)) {
				t.Errorf("%s: stored config %s (%v), want %s", step, raw, err, want)
			}
		}
		settings := map[string]tftypes.Value{
			"plugin":                   num(sc.plugin),
			"enabled":                  tftypes.NewValue(tftypes.Bool, true),
			"name":                     str("Settings test"),
			"config":                   str(obj(sc.plain, "a")),
			"secret_config_wo":         str(obj(sc.secretKey, "s1")),
			"secret_config_wo_version": num(1),
		}
		with := func(changes map[string]tftypes.Value) map[string]tftypes.Value {
			out := maps.Clone(settings)
			maps.Copy(out, changes)
			return out
		}

		created := srv.Apply(t, tc.TypeName, nil, nil, settings)
		acctest.FailOnDiagnostics(t, "create", created.Diagnostics)
		id := stateID(t, srv, tc.TypeName, created.NewState)
		// With secrets, the POST is JSON and the settings follow once the
		// answer has shown which settings the plugin marks secret.
		if reqs := log.take(); len(reqs) != 2 || reqs[0].mediaType != "application/json" ||
			reqs[0].json != `{"plugin":`+strconv.FormatInt(sc.plugin, 10)+`,"enabled":true,"order":0,"name":"Settings test"}` ||
			reqs[1].method != http.MethodPatch || reqs[1].mediaType != "multipart/form-data" ||
			!python.Equal(json.RawMessage(reqs[1].form["config"]), json.RawMessage(obj(sc.plain, "a", sc.secretKey, "s1"))) {
			t.Fatalf("create: writes %+v, want a JSON POST and the settings in a multipart PATCH", reqs)
		}
		stored("create", id, obj(sc.plain, "a", sc.secretKey, "s1"))

		// Without secrets, once the service has shown that it stores
		// configs: one multipart POST, the other fields as form values.
		plainOnly := maps.Clone(settings)
		delete(plainOnly, "secret_config_wo")
		delete(plainOnly, "secret_config_wo_version")
		second := srv.Apply(t, tc.TypeName, nil, nil, plainOnly)
		acctest.FailOnDiagnostics(t, "second create", second.Diagnostics)
		log.expectForm(t, "second create", http.MethodPost, map[string]string{
			"config": obj(sc.plain, "a"), "plugin": strconv.FormatInt(sc.plugin, 10), "order": "0",
			"enabled": "true", "name": "Settings test",
		})
		attrs := acctest.Attributes(t, created.NewState, srv.ResourceType(t, tc.TypeName))
		if !attrs["secret_config_wo"].IsNull() || !attrs["config"].Equal(str(obj(sc.plain, "a"))) {
			t.Errorf("state after create: secret_config_wo %v, config %v", attrs["secret_config_wo"], attrs["config"])
		}

		// No settings changed: JSON, whatever secret_config_wo now says.
		renamed := srv.Apply(t, tc.TypeName, created.NewState, created.NewIdentity, with(map[string]tftypes.Value{
			"name": str("Renamed"), "secret_config_wo": str(obj(sc.secretKey, "unseen")),
		}))
		acctest.FailOnDiagnostics(t, "rename", renamed.Diagnostics)
		log.expectJSON(t, "rename", http.MethodPatch, `{"name":"Renamed"}`)

		// A plain setting: config alone, no secret.
		changed := srv.Apply(t, tc.TypeName, renamed.NewState, renamed.NewIdentity, with(map[string]tftypes.Value{
			"name": str("Renamed"), "config": str(obj(sc.plain, "b")),
		}))
		acctest.FailOnDiagnostics(t, "plain change", changed.Diagnostics)
		log.expectForm(t, "plain change", http.MethodPatch, map[string]string{"config": obj(sc.plain, "b")})
		stored("plain change", id, obj(sc.plain, "b", sc.secretKey, "s1"))

		// The version: the secrets again, with the plain settings.
		rotated := srv.Apply(t, tc.TypeName, changed.NewState, changed.NewIdentity, with(map[string]tftypes.Value{
			"name": str("Renamed"), "config": str(obj(sc.plain, "b")),
			"secret_config_wo": str(obj(sc.secretKey, "s2")), "secret_config_wo_version": num(2),
		}))
		acctest.FailOnDiagnostics(t, "rotation", rotated.Diagnostics)
		log.expectForm(t, "rotation", http.MethodPatch, map[string]string{"config": obj(sc.plain, "b", sc.secretKey, "s2")})
		stored("rotation", id, obj(sc.plain, "b", sc.secretKey, "s2"))

		destroyed := srv.Apply(t, tc.TypeName, rotated.NewState, rotated.NewIdentity, nil)
		acctest.FailOnDiagnostics(t, "destroy", destroyed.Diagnostics)
		log.expectJSON(t, "destroy", http.MethodPatch, `{"deleted":true}`)

		// config left out: only the secrets are sent after the create; a rotation
		// sends them with the plain settings the service holds now, also
		// those set elsewhere since (one GET, then the PATCH).
		secretOnly := map[string]tftypes.Value{
			"plugin": num(sc.plugin), "secret_config_wo": str(obj(sc.secretKey, "s1")), "secret_config_wo_version": num(1),
		}
		created = srv.Apply(t, tc.TypeName, nil, nil, secretOnly)
		acctest.FailOnDiagnostics(t, "create with secrets only", created.Diagnostics)
		id = stateID(t, srv, tc.TypeName, created.NewState)
		if reqs := log.take(); len(reqs) != 2 || reqs[0].mediaType != "application/json" || reqs[1].method != http.MethodPatch ||
			!python.Equal(json.RawMessage(reqs[1].form["config"]), json.RawMessage(obj(sc.secretKey, "s1"))) {
			t.Fatalf("create with secrets only: writes %+v, want a JSON POST and the secrets in a multipart PATCH", reqs)
		}
		c := acctest.ClientFor(t, host, acctest.KeyFull)
		if _, err := c.Update(context.Background(), "1", tc.Kind.Collection, id,
			client.RecordInput{Settings: client.Some(json.RawMessage(obj(sc.plain, "elsewhere")))}); err != nil {
			t.Fatal(err)
		}
		log.take()
		secretOnly["secret_config_wo"], secretOnly["secret_config_wo_version"] = str(obj(sc.secretKey, "s2")), num(2)
		rotated = srv.Apply(t, tc.TypeName, created.NewState, created.NewIdentity, secretOnly)
		acctest.FailOnDiagnostics(t, "rotation with config left out", rotated.Diagnostics)
		log.expectForm(t, "rotation with config left out", http.MethodPatch,
			map[string]string{"config": obj(sc.plain, "elsewhere", sc.secretKey, "s2")})
		stored("rotation with config left out", id, obj(sc.plain, "elsewhere", sc.secretKey, "s2"))

		// Without any settings the create is JSON.
		plain := srv.Apply(t, tc.TypeName, nil, nil, map[string]tftypes.Value{"plugin": num(sc.plugin)})
		acctest.FailOnDiagnostics(t, "create without settings", plain.Diagnostics)
		log.expectJSON(t, "create without settings", http.MethodPost, `{"plugin":`+strconv.FormatInt(sc.plugin, 10)+`,"enabled":false,"order":0}`)
	})
}
