package localapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// The write operations the fuzz target sends a body to; the low bits of
// its op byte pick one, bit 4 the collection, and the three top bits (modulo
// 5) the version: 0 B, 32 C, 64 D, 96 E, 128 E2026.
const (
	fuzzCreateJSON = iota
	fuzzUpdateJSON
	fuzzUpdatePUT
	fuzzUpdateMultipart // body lines "field=value" become form fields
	fuzzCreateMultipart
	fuzzUpdateRawMultipart // body sent as is, boundary "B"
	fuzzJob
	fuzzRearrange
	fuzzDelete // body is the id path segment
	fuzzOps
)

// fuzzServer is one local API per fuzzing process, with a config per
// collection whose plugin has a public job, and a count of the
// server-side errors it logged (an unexpected failure or a panic).
type fuzzServer struct {
	srv     *localapi.Server
	errors  atomic.Int64
	records map[string]int64
}

var (
	fuzzOnce sync.Once
	fuzzSrv  *fuzzServer
)

type countingHandler struct {
	slog.Handler
	n *atomic.Int64
}

func (h countingHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError {
		h.n.Add(1)
	}
	return h.Handler.Handle(ctx, r)
}

func getFuzzServer(f *testing.F) *fuzzServer {
	fuzzOnce.Do(func() {
		fs := &fuzzServer{records: map[string]int64{}}
		logger := slog.New(countingHandler{Handler: slog.DiscardHandler, n: &fs.errors})
		srv, err := localapi.New(localapi.Options{Logger: logger})
		if err != nil {
			f.Fatal(err)
		}
		fs.srv = srv
		for coll, plugin := range map[string]int{tr: 2, ia: 3} {
			w := fs.serve(http.MethodPost, path(1, coll), "application/json",
				[]byte(fmt.Sprintf(`{"plugin": %d, "order": 1, "enabled": true}`, plugin)))
			var rec struct{ ID int64 }
			if w.Code != http.StatusCreated || json.Unmarshal(w.Body.Bytes(), &rec) != nil {
				f.Fatalf("seeding: %d %s", w.Code, w.Body)
			}
			fs.records[coll] = rec.ID
		}
		fuzzSrv = fs
	})
	return fuzzSrv
}

func (fs *fuzzServer) serve(method, p, contentType string, body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequestWithContext(context.Background(), method, p, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+full)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	fs.srv.ServeHTTP(w, req)
	return w
}

// FuzzWriteBodies sends arbitrary bodies to every write operation of both
// collections: create and update as JSON and as multipart forms (update
// by PATCH and PUT), job, rearrange, and delete by arbitrary id. No answer
// may be a 5xx except the live service's documented ones (DELETE of an
// unknown id; rearrange with a key that is not an integer, or a body or
// orders that are not objects, or an order the column cannot hold; a job
// body that is not an object, or a job type that is a list or an object;
// a create or update whose config or filters hold a value PostgreSQL
// cannot store: an infinite or NaN number, a null character or a lone
// surrogate), and the server must never log an unexpected failure or a
// panic.
func FuzzWriteBodies(f *testing.F) {
	fs := getFuzzServer(f)
	for _, seed := range []struct {
		op   uint8
		body string
	}{
		{fuzzCreateJSON, `{"plugin": 1, "order": 1, "name": "n", "filters": {"events": [{"type": "events"}]}}`},
		{fuzzCreateJSON, `{"plugin": "1", "order": 2.0, "enabled": "yes", "description": 5}`},
		{fuzzCreateJSON, `[]`},
		{fuzzUpdateJSON, `{"order": 2147483648}`},
		{fuzzUpdateJSON, `{"filters": {"events": [{"type": null, "properties": {}}], "other": 1}, "deleted": true}`},
		{fuzzUpdatePUT, `{"plugin": 2, "order": 3}`},
		{fuzzUpdateMultipart, "config={\"properties\": \"a\"}\nenabled=true\norder=4"},
		{fuzzUpdateMultipart, "config=[1]\nname="},
		{fuzzCreateMultipart | 16, "plugin=3\norder=1\nconfig={\"bucket\": \"b\", \"aws_secret_access_key\": \"s\"}"},
		{fuzzUpdateRawMultipart, "--B\r\nContent-Disposition: form-data; name=\"order\"\r\n\r\n7\r\n--B--\r\n"},
		{fuzzJob, `{"job": {"type": "Reprocess", "payload": {"since": "2024-01-01"}}}`},
		{fuzzJob | 16, `{"job": {"type": "Backfill", "payload": {"days": 3}, "operation": "start"}}`},
		{fuzzJob, `{"job": {"type": ["x"]}}`},
		{fuzzJob, `"job"`},
		{fuzzRearrange, `{"orders": {"1": 5, "2": 6}}`},
		{fuzzRearrange, `{"orders": {"x": 1}}`},
		{fuzzRearrange, `{"orders": {"1_0": 99999999999}}`},
		{fuzzDelete, `1`},
		{fuzzDelete, `424242`},
		{fuzzDelete, `abc`},
		{fuzzCreateJSON | 96, `{"plugin": 1, "order": 1, "filters": "ignored"}`},
		{fuzzCreateJSON | 32, `{"plugin": 1, "order": 1, "filters": "ignored"}`},
		{fuzzCreateMultipart | 16 | 96, "plugin=3\norder=1\nconfig={\"bucket\": \"b\", \"aws_secret_access_key\": \"s\"}"},
		{fuzzUpdateJSON | 96, `{"filters": [1], "name": "n"}`},
		{fuzzUpdateJSON | 64, `{"filters": [1], "name": "n"}`},
		{fuzzCreateJSON | 128, `{"plugin": 1, "order": 1}`},
		{fuzzCreateMultipart | 128, "plugin=1\norder=1\nconfig={\"locale\": \"en\"}"},
		{fuzzRearrange | 128, `{"orders": {"x": 1}}`},
		{fuzzRearrange | 32, `{"orders": {"1": 1, "3": "2", "x": 1}}`},
		{fuzzJob | 32, `{"job": {"type": "Reprocess", "payload": {"since": "2024-01-01"}}}`},
		{fuzzCreateJSON, `{"plugin": 1, "order": 1, "filters": {"events": [{"type": "events", "id": 1e400, "properties": [{"v": 1e400}]}]}}`},
		{fuzzUpdateJSON, `{"filters": {"actions": [{"type": "actions", "properties": [{"\ud800": "\u0000"}]}]}}`},
		{fuzzUpdateMultipart, "config={\"v\": NaN, \"w\": 1.50}\nfilters={\"events\": [{\"type\": \"events\", \"order\": Infinity}]}"},
		{fuzzUpdateMultipart, "filters="},
		{fuzzCreateJSON, `{"plugin": 1, "order": 1, "x": 1` + strings.Repeat("0", 4300) + `}`},
	} {
		f.Add(seed.op, []byte(seed.body))
	}
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		coll := tr
		if op&16 != 0 {
			coll = ia
		}
		// Every version that has the collections, by the op's top bits.
		v := localapi.Versions()[int(op>>5)%5]
		if err := fs.srv.SetVersion(v); err != nil {
			t.Fatal(err)
		}
		rec := fs.records[coll]
		kind := int(op&15) % fuzzOps
		allowed500 := false
		var w *httptest.ResponseRecorder
		before := fs.errors.Load()
		switch kind {
		case fuzzCreateJSON:
			w = fs.serve(http.MethodPost, path(1, coll), "application/json", body)
			allowed500 = mayBeUnstorable(body)
		case fuzzUpdateJSON:
			w = fs.serve(http.MethodPatch, path(1, coll, rec), "application/json", body)
			allowed500 = mayBeUnstorable(body)
		case fuzzUpdatePUT:
			w = fs.serve(http.MethodPut, path(1, coll, rec), "application/json", body)
			allowed500 = mayBeUnstorable(body)
		case fuzzUpdateMultipart, fuzzCreateMultipart:
			form, ctype := formOf(body)
			if kind == fuzzCreateMultipart {
				w = fs.serve(http.MethodPost, path(1, coll), ctype, form)
			} else {
				w = fs.serve(http.MethodPatch, path(1, coll, rec), ctype, form)
			}
			allowed500 = mayBeUnstorable(body)
		case fuzzUpdateRawMultipart:
			w = fs.serve(http.MethodPatch, path(1, coll, rec), "multipart/form-data; boundary=B", body)
			allowed500 = mayBeUnstorable(body)
		case fuzzJob:
			w = fs.serve(http.MethodPost, path(1, coll, rec, "job"), "application/json", body)
			allowed500 = jobMay500(body)
		case fuzzRearrange:
			w = fs.serve(http.MethodPatch, path(1, coll, "rearrange"), "application/json", body)
			allowed500 = !cleanOrders(body)
		case fuzzDelete:
			seg := strings.Trim(string(body), "/")
			if strings.ContainsAny(seg, "/?#%") || seg == "" {
				return // not one path segment
			}
			id, err := strconv.ParseInt(seg, 10, 64)
			w = fs.serve(http.MethodDelete, path(1, coll, url.PathEscape(seg)), "", nil)
			allowed500 = err != nil || (id != fs.records[tr] && id != fs.records[ia] && w.Code >= 500)
		}
		if n := fs.errors.Load() - before; n > 0 {
			t.Fatalf("op %d: the server logged %d unexpected failures; answer %d %s", kind, n, w.Code, w.Body)
		}
		if w.Code >= 500 && (w.Code != http.StatusInternalServerError || !allowed500) {
			t.Fatalf("op %d: %d %s for body %q", kind, w.Code, w.Body, body)
		}
		if w.Code >= 500 {
			return
		}
		if w.Code == http.StatusCreated {
			// Disable it: rearrange answers every enabled config, and the
			// answer must not grow with every create fuzzed. From E on a
			// create saves none: its answer has no id.
			var created struct{ ID *int64 }
			if err := json.Unmarshal(w.Body.Bytes(), &created); err != nil || (created.ID == nil) != (v >= localapi.VersionE) {
				t.Fatalf("op %d at version %v: 201 with %s", kind, v, w.Body)
			}
			if created.ID != nil {
				fs.serve(http.MethodDelete, path(1, coll, *created.ID), "", nil)
			}
		}
		// Whatever was accepted still reads back as a record.
		if r := fs.serve(http.MethodGet, path(1, coll, rec), "", nil); r.Code != http.StatusOK && r.Code != http.StatusNotFound {
			t.Fatalf("after op %d: retrieve %d %s", kind, r.Code, r.Body)
		}
	})
}

var (
	// jsonNumber finds number literals; one a double cannot hold reads as
	// infinity.
	jsonNumber = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`)
	// unstorableText finds what jsonb refuses in a string or key (a null
	// character, a surrogate escape) and the constants json.loads reads
	// in a form's JSON (NaN, Infinity).
	unstorableText = regexp.MustCompile(`(?i)\\u0000|\\ud[89a-f]|nan|infinity`)
)

// mayBeUnstorable reports a create or update body that may hold a value
// PostgreSQL cannot store, which the service fails on with a 500: an
// infinite or NaN number, a null character or a lone surrogate.
func mayBeUnstorable(body []byte) bool {
	if unstorableText.Match(body) {
		return true
	}
	for _, lit := range jsonNumber.FindAll(body, -1) {
		if f, err := strconv.ParseFloat(string(lit), 64); err != nil || math.IsInf(f, 0) {
			return true
		}
	}
	return false
}

// formOf turns lines "field=value" into a multipart form.
func formOf(body []byte) ([]byte, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, line := range strings.Split(string(body), "\n") {
		k, v, _ := strings.Cut(line, "=")
		_ = mw.WriteField(k, v)
	}
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// jobMay500 reports a job body the live view fails on: not an object, or
// a job type that Python cannot look up (a list or an object).
func jobMay500(body []byte) bool {
	v, ok := decode(body)
	if !ok {
		return false
	}
	obj, isObj := v.(map[string]any)
	if !isObj {
		return true
	}
	job, _ := obj["job"].(map[string]any)
	switch job["type"].(type) {
	case []any, map[string]any:
		return true
	}
	return false
}

var plainInt = regexp.MustCompile(`^-?[0-9]{1,15}$`)

// cleanOrders reports a rearrange body the live view handles without
// failing: absent or an object whose orders, if any, is an object of
// plain integer keys and 32-bit integer values.
func cleanOrders(body []byte) bool {
	if len(bytes.TrimSpace(body)) == 0 {
		return true
	}
	v, ok := decode(body)
	if !ok {
		return true // a parse error is a 400
	}
	obj, isObj := v.(map[string]any)
	if !isObj {
		return false
	}
	raw, present := obj["orders"]
	if !present {
		return true
	}
	orders, isObj := raw.(map[string]any)
	if !isObj {
		return false
	}
	for k, val := range orders {
		n, isNum := val.(json.Number)
		if !plainInt.MatchString(k) || !isNum {
			return false
		}
		if i, err := strconv.ParseInt(string(n), 10, 32); err != nil || i != int64(int32(i)) {
			return false
		}
	}
	return true
}

func decode(body []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return nil, false
	}
	return v, true
}
