package localapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

const (
	tr = localapi.TransformationConfigs
	ia = localapi.ImportAppConfigs

	full  = localapi.KeyFull
	write = localapi.KeyWrite
	read  = localapi.KeyRead
	star  = localapi.KeyStar
)

// collections are the two collections with a plugin of each kind: every
// collection test runs for both.
var collections = []struct {
	name        string
	plugin      int64 // a plugin this collection shows
	otherPlugin int64 // a plugin of the other collection
}{
	{tr, 1, 3},
	{ia, 3, 1},
}

// text returns a plugin's name or description.
func text(s string) *string { return &s }

// migrators are, by collection, the plugins of withMigrator's catalog
// whose url has a migrator (SendGrid's).
var migrators = localapitest.MigratorPlugins

// withMigrator is the seeded catalog and the plugins of migrators.
func withMigrator() []localapi.Plugin { return localapitest.WithMigrators() }

// api is a Server behind a real HTTP listener (httptest).
type api struct {
	t   testing.TB
	srv *localapi.Server
	url string
}

func newAPI(t testing.TB, opts localapi.Options) *api {
	t.Helper()
	srv, err := localapi.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	})
	return &api{t: t, srv: srv, url: hs.URL}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// path builds /api/projects/<project>/<coll>/<rest...>/.
func path(project any, coll string, rest ...any) string {
	p := fmt.Sprintf("/api/projects/%v/%s/", project, coll)
	for _, r := range rest {
		p += fmt.Sprint(r) + "/"
	}
	return p
}

// do sends body as JSON: a string is sent as is, anything else marshalled.
func (a *api) do(method, p, key string, body any) *response {
	a.t.Helper()
	var rd io.Reader
	ct := ""
	switch b := body.(type) {
	case nil:
	case string:
		rd, ct = strings.NewReader(b), "application/json"
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			a.t.Fatal(err)
		}
		rd, ct = bytes.NewReader(buf), "application/json"
	}
	req, err := http.NewRequestWithContext(a.t.Context(), method, a.url+p, rd)
	if err != nil {
		a.t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	return a.send(req, key)
}

// form sends fields as multipart/form-data.
func (a *api) form(method, p, key string, fields map[string]string) *response {
	a.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := mw.WriteField(k, v); err != nil {
			a.t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		a.t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(a.t.Context(), method, a.url+p, &buf)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return a.send(req, key)
}

func (a *api) send(req *http.Request, key string) *response {
	a.t.Helper()
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		a.t.Fatal(err)
	}
	return &response{status: resp.StatusCode, header: resp.Header, body: body}
}

// create makes a record and returns it; it fails the test unless 201.
func (a *api) create(project any, coll, key string, body any) map[string]any {
	a.t.Helper()
	r := a.do(http.MethodPost, path(project, coll), key, body)
	r.want(a.t, http.StatusCreated)
	return r.object(a.t)
}

func (r *response) want(t testing.TB, status int) *response {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	return r
}

func (r *response) object(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.body)
	}
	return m
}

func (r *response) array(t testing.TB) []any {
	t.Helper()
	var a []any
	if err := json.Unmarshal(r.body, &a); err != nil {
		t.Fatalf("body is not a JSON array: %v: %s", err, r.body)
	}
	return a
}

// wantError checks status and the whole envelope; attr "" means null.
func (r *response) wantError(t testing.TB, status int, typ, code, detail, attr string) {
	t.Helper()
	r.want(t, status)
	var env map[string]any
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatalf("error body is not JSON: %s", r.body)
	}
	if len(env) != 4 {
		t.Errorf("envelope has keys %v, want type, code, detail, attr", env)
	}
	var wantAttr any
	if attr != "" {
		wantAttr = attr
	}
	if env["type"] != typ || env["code"] != code || env["detail"] != detail || env["attr"] != wantAttr {
		t.Fatalf("envelope %s, want type=%q code=%q detail=%q attr=%v", r.body, typ, code, detail, wantAttr)
	}
}

// id reads a record's id.
func id(rec map[string]any) int64 { return num(rec, "id") }

// num reads a JSON number field as int64. Without a testing.TB to fail, a
// field that is not a number panics, which fails the test all the same.
func num(rec map[string]any, field string) int64 {
	n, ok := rec[field].(float64)
	if !ok {
		panic(fmt.Sprintf("field %q is %#v, not a number, in %v", field, rec[field], rec))
	}
	return int64(n)
}

// as asserts v's type, failing the test when it is another.
func as[T any](t testing.TB, v any) T {
	t.Helper()
	x, ok := v.(T)
	if !ok {
		t.Fatalf("%#v is a %T, want a %T", v, v, x)
	}
	return x
}

// results reads a list page's records.
func results(t testing.TB, page map[string]any) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, r := range as[[]any](t, page["results"]) {
		recs = append(recs, as[map[string]any](t, r))
	}
	return recs
}

// jsonEqual reports whether got, decoded JSON, is the JSON text want.
func jsonEqual(t *testing.T, got any, want string) bool {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if raw, ok := got.(json.RawMessage); ok {
		var g any
		if err := json.Unmarshal(raw, &g); err != nil {
			t.Errorf("not JSON: %s", raw)
			return false
		}
		got = g
	}
	g, _ := json.Marshal(got)
	wb, _ := json.Marshal(w)
	return string(g) == string(wb)
}
