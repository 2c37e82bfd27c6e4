package localapi_test

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// TestFaultsNeverHideCommittedWrite: every create answered 201 is stored,
// and no faulted create is.
func TestFaultsNeverHideCommittedWrite(t *testing.T) {
	a := newAPI(t, localapi.Options{Faults: localapi.Faults{Rate429: 0.1, Rate502: 0.3, Rate503: 0.2, ResetRate: 0.1, Seed: 7}})
	created := map[string]bool{}
	statuses := map[int]int{}
	resets := 0
	const n = 200
	for i := range n {
		name := fmt.Sprintf("rec-%d", i)
		body := fmt.Sprintf(`{"plugin": 1, "order": %d, "name": %q}`, i, name)
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, a.url+path(1, tr), strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+full)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			resets++
			continue
		}
		_, err = io.Copy(io.Discard, resp.Body)
		if cerr := resp.Body.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatalf("reading an answer: %v", err)
		}
		statuses[resp.StatusCode]++
		if resp.StatusCode == http.StatusCreated {
			created[name] = true
		}
	}
	if statuses[201] == 0 || statuses[201] == n || resets == 0 || statuses[502] == 0 || statuses[503] == 0 || statuses[429] == 0 {
		t.Fatalf("fault mix not exercised: %v, %d resets", statuses, resets)
	}
	a.srv.SetFaults(localapi.Faults{})
	page := a.do(http.MethodGet, path(1, tr)+"?limit=1000", full, nil).want(t, 200).object(t)
	stored := map[string]bool{}
	for _, r := range results(t, page) {
		stored[as[string](t, r["name"])] = true
	}
	if len(stored) != len(created) {
		t.Errorf("stored %d records, %d creates answered 201", len(stored), len(created))
	}
	for name := range created {
		if !stored[name] {
			t.Errorf("%s answered 201 but is not stored", name)
		}
	}
	c := a.srv.Counters()
	if c["create"] != n || c["faulted"] != int64(n-statuses[201]) || c["fault_reset"] != int64(resets) ||
		c["fault_502"] != int64(statuses[502]) || c["fault_503"] != int64(statuses[503]) || c["fault_429"] != int64(statuses[429]) {
		t.Errorf("counters %v; statuses %v resets %d", c, statuses, resets)
	}
}

func TestFaultAnswers(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	cases := []struct {
		f          localapi.Faults
		status     int
		code       string
		retryAfter string
	}{
		{localapi.Faults{Rate429: 1}, 429, "throttled", "1"},
		{localapi.Faults{Rate502: 1}, 502, "bad_gateway", ""},
		{localapi.Faults{Rate503: 1}, 503, "service_unavailable", "1"},
	}
	for _, c := range cases {
		a.srv.SetFaults(c.f)
		// Faults come before authentication: a proxy answers.
		r := a.do(http.MethodGet, path(1, tr), "", nil).want(t, c.status)
		env := r.object(t)
		if env["code"] != c.code || r.header.Get("Retry-After") != c.retryAfter {
			t.Errorf("%d: %v Retry-After %q", c.status, env, r.header.Get("Retry-After"))
		}
	}
	a.srv.SetFaults(localapi.Faults{ResetRate: 1})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, a.url+path(1, tr), nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		_ = resp.Body.Close() // the test fails either way
		t.Fatalf("reset fault answered %d", resp.StatusCode)
	}
	a.srv.SetFaults(localapi.Faults{Latency: 60 * time.Millisecond})
	start := time.Now()
	a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200)
	if d := time.Since(start); d < 60*time.Millisecond {
		t.Errorf("latency fault: request took %v", d)
	}
	if got := a.srv.CurrentFaults(); got.Latency != 60*time.Millisecond {
		t.Errorf("CurrentFaults %+v", got)
	}
	a.srv.SetFaults(localapi.Faults{})
	a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200)
}

// TestPageFaults: endless pages bring fresh records with next always
// further; padding makes a page oversized but still JSON. Both only touch
// lists, and go with the switch.
func TestPageFaults(t *testing.T) {
	a := newAPI(t, localapi.Options{DebugRoutes: true})
	rec := a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
	a.do("PUT", "/_localapi/faults", "", `{"endless_pages": true}`).want(t, 204)
	seen := map[float64]bool{}
	for offset := 0; offset < 9; offset += 3 {
		page := a.do("GET", path(1, tr)+"?limit=3&offset="+strconv.Itoa(offset), full, nil).want(t, 200).object(t)
		next := as[string](t, page["next"])
		if page["count"] != float64(offset+4) || !strings.Contains(next, "offset="+strconv.Itoa(offset+3)) {
			t.Fatalf("offset %d: count %v, next %v; want a count one past the page and next further", offset, page["count"], next)
		}
		for _, r := range results(t, page) {
			if id := as[float64](t, r["id"]); seen[id] || r["plugin"] != float64(1) {
				t.Fatalf("offset %d: record %v repeats or is not a transformation", offset, r)
			} else {
				seen[id] = true
			}
		}
	}
	if len(seen) != 9 {
		t.Errorf("%d records, want 9", len(seen))
	}
	a.do("PUT", "/_localapi/faults", "", `{"page_padding": 100000}`).want(t, 204)
	r := a.do("GET", path(1, tr), full, nil).want(t, 200)
	if len(r.body) < 100000 || len(results(t, r.object(t))) != 1 {
		t.Errorf("padded page of %d bytes, want the stored record and 100000 spaces", len(r.body))
	}
	if f := a.do("GET", "/_localapi/faults", "", nil).want(t, 200).object(t); f["page_padding"] != float64(100000) || f["endless_pages"] != false {
		t.Errorf("faults %v", f)
	}
	if got := len(a.do("GET", path(1, tr, id(rec)), full, nil).want(t, 200).body); got > 10000 {
		t.Errorf("a retrieve of %d bytes: padding is for list pages only", got)
	}
	a.srv.SetFaults(localapi.Faults{})
	if page := a.do("GET", path(1, tr), full, nil).want(t, 200).object(t); page["count"] != float64(1) || page["next"] != nil {
		t.Errorf("switched off: %v", page)
	}
}

func TestRateLimit(t *testing.T) {
	a := newAPI(t, localapi.Options{RateLimitPerMinute: 3})
	for range 3 {
		a.do(http.MethodGet, path(1, tr), write, nil).want(t, 200)
	}
	r := a.do(http.MethodPost, path(1, tr), write, map[string]any{"plugin": 1, "order": 1})
	r.want(t, 429)
	secs, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || secs < 1 || secs > 60 {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	r.wantError(t, 429, "throttled_error", "throttled", fmt.Sprintf("Request was throttled. Expected available in %d seconds.", secs), "")
	// The throttled create did nothing; other keys are not limited;
	// 401s are not counted against a key.
	if got := listIDs(t, a, tr); len(got) != 0 {
		t.Errorf("throttled create stored %v", got)
	}
	a.do(http.MethodGet, path(1, tr), "", nil).want(t, 401)
	if c := a.srv.Counters(); c["throttled"] != 1 || c["create"] != 1 {
		t.Errorf("counters %v", c)
	}
	a.srv.SetRateLimit(0)
	a.do(http.MethodGet, path(1, tr), write, nil).want(t, 200)
}

// TestHourlyRateLimit: the sustained limit beside the burst one, as the
// live service's two throttles: each counts what it lets through (also a
// request the other refuses), and a 429 asks for the longest wait.
func TestHourlyRateLimit(t *testing.T) {
	a := newAPI(t, localapi.Options{RateLimitPerMinute: 2, RateLimitPerHour: 3})
	retryAfter := func(r *response) int {
		t.Helper()
		secs, err := strconv.Atoi(r.header.Get("Retry-After"))
		if err != nil {
			t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
		}
		r.wantError(t, 429, "throttled_error", "throttled", fmt.Sprintf("Request was throttled. Expected available in %d seconds.", secs), "")
		return secs
	}
	a.do(http.MethodGet, path(1, tr), write, nil).want(t, 200)
	a.do(http.MethodGet, path(1, tr), write, nil).want(t, 200)
	// Third: the minute refuses; the hour lets it through and counts it.
	if secs := retryAfter(a.do(http.MethodGet, path(1, tr), write, nil)); secs < 1 || secs > 60 {
		t.Fatalf("the minute's limit: Retry-After %d", secs)
	}
	// Fourth: both refuse, the hour's wait is the longer.
	if secs := retryAfter(a.do(http.MethodGet, path(1, tr), write, nil)); secs < 3540 || secs > 3600 {
		t.Fatalf("the hour's limit: Retry-After %d, want about 3600", secs)
	}
	a.srv.SetRateLimit(0)
	if secs := retryAfter(a.do(http.MethodGet, path(1, tr), write, nil)); secs < 3540 {
		t.Fatalf("the hour's limit alone: Retry-After %d", secs)
	}
	a.do(http.MethodGet, path(1, tr), full, nil).want(t, 200) // per key
	if c := a.srv.Counters(); c["throttled"] != 3 {
		t.Errorf("counters %v", c)
	}
	a.srv.SetHourlyRateLimit(0)
	a.do(http.MethodGet, path(1, tr), write, nil).want(t, 200)
}

func TestCounters(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1, "enabled": true})
	a.create(1, ia, full, map[string]any{"plugin": 3, "order": 1})
	a.do("GET", path(1, tr), full, nil)
	a.do("GET", path(1, ia), read, nil)
	a.do("GET", path(1, tr, id(rec)), full, nil)
	a.do("PATCH", path(1, tr, id(rec)), full, map[string]any{"order": 2})
	a.do("GET", path(1, tr, id(rec), "frontend"), full, nil)
	a.do("POST", path(1, tr, id(rec), "job"), full, jobBodies[tr])
	a.do("PATCH", path(1, tr, "rearrange"), full, nil)
	a.do("DELETE", path(1, tr, id(rec)), full, nil)
	a.do("GET", "/nowhere", full, nil)
	a.do("GET", path(1, tr), "", nil) // 401s count too
	want := map[string]int64{
		"create": 2, "list": 3, "retrieve": 1, "update": 1, "frontend": 1, "job": 1, "rearrange": 1, "delete": 1,
		"other": 1, "total": 12, "throttled": 0, "faulted": 0,
	}
	// The same per collection; an unknown path names none.
	for k, v := range map[string]int64{
		"create:" + tr: 1, "create:" + ia: 1, "list:" + tr: 2, "list:" + ia: 1, "retrieve:" + tr: 1, "retrieve:" + ia: 0,
		"update:" + tr: 1, "frontend:" + tr: 1, "job:" + tr: 1, "rearrange:" + tr: 1, "delete:" + tr: 1, "other:" + tr: 0,
	} {
		want[k] = v
	}
	c := a.srv.Counters()
	for k, v := range want {
		if got, ok := c[k]; !ok || got != v {
			t.Errorf("counter %s = %d (present %v), want %d (all: %v)", k, got, ok, v, c)
		}
	}
	// Generation 2 counts its creates (which store nothing) the same way,
	// and requests to routes it lacks under the operation they name.
	if err := a.srv.SetGeneration(2); err != nil {
		t.Fatal(err)
	}
	a.srv.ResetCounters()
	a.create(1, ia, full, map[string]any{"plugin": 5, "order": 1}) // a transformation: the collection is not checked
	a.do("POST", path(1, tr, id(rec), "job"), full, jobBodies[tr]).want(t, 404)
	a.do("PUT", path(1, tr), full, nil).want(t, 405)
	for k, v := range map[string]int64{"create": 1, "create:" + ia: 1, "create:" + tr: 0, "job": 1, "job:" + tr: 1,
		"other": 1, "other:" + tr: 1, "total": 3} {
		if got := a.srv.Counters()[k]; got != v {
			t.Errorf("generation 2: counter %s = %d, want %d", k, got, v)
		}
	}
	a.srv.ResetCounters()
	for k, v := range a.srv.Counters() {
		if v != 0 {
			t.Errorf("after reset %s = %d", k, v)
		}
	}
}

func TestDebugRoutes(t *testing.T) {
	off := newAPI(t, localapi.Options{})
	off.do("GET", "/_localapi/counters", "", nil).want(t, 404)

	a := newAPI(t, localapi.Options{DebugRoutes: true})
	rec := a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1})
	a.do("POST", path(1, tr, id(rec), "job"), full, jobBodies[tr]).want(t, 200)
	c := a.do("GET", "/_localapi/counters", "", nil).want(t, 200).object(t)
	if c["create"] != float64(1) || c["job"] != float64(1) {
		t.Errorf("counters %v", c)
	}
	jobs := a.do("GET", "/_localapi/jobs", "", nil).want(t, 200).array(t)
	if len(jobs) != 1 || as[map[string]any](t, jobs[0])["type"] != "Reprocess" || num(as[map[string]any](t, jobs[0]), "config_id") != id(rec) {
		t.Errorf("jobs %v", jobs)
	}
	a.do("PUT", "/_localapi/faults", "", `{"rate_503": 1, "latency": "1ms"}`).want(t, 204)
	a.do("GET", path(1, tr), full, nil).want(t, 503)
	f := a.do("GET", "/_localapi/faults", "", nil).want(t, 200).object(t)
	if f["rate_503"] != float64(1) || f["latency"] != "1ms" {
		t.Errorf("faults %v", f)
	}
	a.do("PUT", "/_localapi/faults", "", `{}`).want(t, 204)
	a.do("PUT", "/_localapi/rate-limit", "", `{"per_minute": 1}`).want(t, 204)
	a.do("GET", path(1, tr), full, nil).want(t, 200)
	a.do("GET", path(1, tr), full, nil).want(t, 429)
	// per_hour beside it; a limit left out stays as it is.
	a.do("PUT", "/_localapi/rate-limit", "", `{"per_minute": 0, "per_hour": 1}`).want(t, 204)
	a.do("GET", path(1, tr), full, nil).want(t, 200)
	if r := a.do("GET", path(1, tr), full, nil).want(t, 429); r.header.Get("Retry-After") != "3600" {
		t.Errorf("the hour's limit: Retry-After %q, want 3600", r.header.Get("Retry-After"))
	}
	a.do("PUT", "/_localapi/rate-limit", "", `{"per_minute": 5}`).want(t, 204)
	a.do("GET", path(1, tr), full, nil).want(t, 429)
	a.do("PUT", "/_localapi/rate-limit", "", `{"per_hour": 0}`).want(t, 204)
	a.do("GET", path(1, tr), full, nil).want(t, 200)
	a.do("POST", "/_localapi/counters/reset", "", nil).want(t, 204)
	if c := a.srv.Counters(); c["total"] != 0 {
		t.Errorf("counters after reset %v", c)
	}
	a.do("DELETE", "/_localapi/jobs", "", nil).want(t, 204)
	if len(a.srv.Jobs()) != 0 {
		t.Errorf("jobs not cleared")
	}

	// The generation, and the hog functions it makes (secrets masked).
	a.do("PUT", "/_localapi/rate-limit", "", `{"per_minute": 0}`).want(t, 204)
	if g := a.do("GET", "/_localapi/generation", "", nil).want(t, 200).object(t); g["generation"] != float64(1) {
		t.Errorf("generation %v", g)
	}
	a.do("PUT", "/_localapi/generation", "", `{"generation": 4}`).want(t, 400)
	a.do("PUT", "/_localapi/generation", "", `{"generation": 2}`).want(t, 204)
	if a.srv.Generation() != 2 {
		t.Errorf("PUT /_localapi/generation did not switch: %d", a.srv.Generation())
	}
	a.form(http.MethodPost, path(1, tr), full, map[string]string{"plugin": "8", "order": "1",
		"config": `{"openExchangeRatesApiKey": "s3cr3t", "normalizedCurrency": "EUR"}`}).want(t, 201)
	a.createHog(1, full, map[string]any{"template_id": secretTemplate, "inputs": map[string]any{"salt": map[string]any{"value": "s3cr3t"}}})
	hfs := a.do("GET", "/_localapi/hog-functions", "", nil).want(t, 200).array(t)
	if len(hfs) != 2 || strings.Contains(fmt.Sprint(hfs[1]), "s3cr3t") { // the currency template's key is no secret
		t.Fatalf("hog functions %v", hfs)
	}
	hf := as[map[string]any](t, hfs[0])
	if hf["plugin"] != float64(8) || hf["project"] != float64(1) || hf["source_config_id"] != nil ||
		hf["template_id"] != "plugin-currency-normalization-plugin" {
		t.Errorf("hog function %v", hf)
	}
	if hf := as[map[string]any](t, hfs[1]); !jsonEqual(t, as[map[string]any](t, hf["inputs"])["salt"], `{"secret": true}`) {
		t.Errorf("hog function %v: the secret masked", hf)
	}
	a.do("DELETE", "/_localapi/hog-functions", "", nil).want(t, 204)
	if len(a.srv.HogFunctions()) != 0 {
		t.Errorf("hog functions not cleared")
	}
}
