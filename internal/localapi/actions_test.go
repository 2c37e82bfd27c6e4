package localapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

func TestRearrange(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	mk := func(project int, coll string, plugin int64, enabled bool) int64 {
		return id(a.create(project, coll, full, map[string]any{"plugin": plugin, "order": 0, "enabled": enabled}))
	}
	t1, t2 := mk(1, tr, 1, true), mk(1, tr, 2, true)
	i1 := mk(1, ia, 3, true)
	off := mk(1, tr, 1, false)
	foreign := mk(2, tr, 1, true)

	for _, coll := range []string{tr, ia} {
		orders := map[string]any{
			fmt.Sprint(t1): 30, fmt.Sprint(t2): 10, fmt.Sprint(i1): 20, // across both collections
			fmt.Sprint(off): 99, fmt.Sprint(foreign): 99, "123456": 99, // ignored
		}
		arr := a.do(http.MethodPatch, path(1, coll, "rearrange"), full, map[string]any{"orders": orders}).want(t, 200).array(t)
		var got []string
		for _, x := range arr {
			r := as[map[string]any](t, x)
			got = append(got, fmt.Sprintf("%d:%d", id(r), num(r, "order")))
			if r["plugin_info"] != nil || r["enabled"] != true {
				t.Errorf("array element %v", r)
			}
		}
		want := []string{fmt.Sprintf("%d:10", t2), fmt.Sprintf("%d:20", i1), fmt.Sprintf("%d:30", t1)}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: array %v, want %v (every enabled config of the project, by order)", coll, got, want)
		}
	}
	for _, c := range []struct {
		project int
		coll    string
		id      int64
		order   int64
	}{{1, tr, off, 0}, {2, tr, foreign, 0}, {1, tr, t1, 30}, {1, ia, i1, 20}} {
		rec := a.do(http.MethodGet, path(c.project, c.coll, c.id), full, nil).want(t, 200).object(t)
		if num(rec, "order") != c.order {
			t.Errorf("record %d order %v, want %d", c.id, rec["order"], c.order)
		}
	}

	// A non-integer key is a 500 and changes nothing (one transaction).
	a.do(http.MethodPatch, path(1, tr, "rearrange"), full, map[string]any{"orders": map[string]any{
		fmt.Sprint(t1): 1, "abc": 2,
	}}).wantError(t, 500, "server_error", "error", "A server error occurred.", "")
	if rec := a.do(http.MethodGet, path(1, tr, t1), full, nil).object(t); num(rec, "order") != 30 {
		t.Errorf("order changed by a failed rearrange: %v", rec["order"])
	}
	// So is an order the column cannot hold, for an id that counts.
	a.do(http.MethodPatch, path(1, tr, "rearrange"), full, map[string]any{"orders": map[string]any{fmt.Sprint(t1): "x"}}).want(t, 500)
	a.do(http.MethodPatch, path(1, tr, "rearrange"), full, map[string]any{"orders": map[string]any{fmt.Sprint(t1): 1 << 40}}).want(t, 500)
	a.do(http.MethodPatch, path(1, tr, "rearrange"), full, map[string]any{"orders": []any{1}}).want(t, 500)
	// Values are converted as the live model does; no body, or no orders, changes nothing.
	arr := a.do(http.MethodPatch, path(1, tr, "rearrange"), full, map[string]any{"orders": map[string]any{fmt.Sprint(t1): "5"}}).want(t, 200).array(t)
	if len(arr) != 3 || num(as[map[string]any](t, arr[0]), "order") != 5 {
		t.Errorf("string order: %v", arr)
	}
	a.do(http.MethodPatch, path(1, tr, "rearrange"), full, nil).want(t, 200)
	a.do(http.MethodPatch, path(1, tr, "rearrange"), full, map[string]any{}).want(t, 200)
	a.do(http.MethodGet, path(1, tr, "rearrange"), full, nil).want(t, 405)
	a.do(http.MethodPatch, path(1, tr, "rearrange"), full, "null").want(t, 500) // live: None.get
	// A project with nothing enabled answers an empty array, not null.
	if r := newAPI(t, localapi.Options{}).do(http.MethodPatch, path("@current", tr, "rearrange"), full, nil); r.status != 200 || string(r.body) != "[]" {
		t.Errorf("rearrange of an empty project: %d %s", r.status, r.body)
	}
}

func TestJob(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	pf := id(a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1}))  // Reprocess {since*}
	geo := id(a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})) // no public jobs
	s3 := id(a.create(1, ia, full, map[string]any{"plugin": 3, "order": 1}))  // Backfill {days*, dry_run}
	bq := id(a.create(2, ia, full, map[string]any{"plugin": 4, "order": 1}))  // "Sync now" {}
	cases := []struct {
		name    string
		project int
		coll    string
		id      int64
		body    any
		detail  string // "" means success
	}{
		{"no job", 1, tr, pf, map[string]any{}, "The job type must be specified!"},
		{"no type", 1, tr, pf, map[string]any{"job": map[string]any{"payload": map[string]any{}}}, "The job type must be specified!"},
		{"no public jobs", 1, tr, geo, map[string]any{"job": map[string]any{"type": "Reprocess"}}, "Plugin has no public jobs"},
		{"unknown job", 1, tr, pf, map[string]any{"job": map[string]any{"type": "x"}}, "Unknown plugin job: 'x'"},
		{"unknown job quoted", 1, tr, pf, map[string]any{"job": map[string]any{"type": "it's"}}, `Unknown plugin job: "it's"`},
		{"unknown job null", 1, tr, pf, map[string]any{"job": map[string]any{"type": nil}}, "Unknown plugin job: None"},
		{"missing field", 1, tr, pf, map[string]any{"job": map[string]any{"type": "Reprocess", "payload": map[string]any{}}}, "Missing required job field: since"},
		{"missing payload", 1, ia, s3, map[string]any{"job": map[string]any{"type": "Backfill"}}, "Missing required job field: days"},
		{"unknown field", 1, ia, s3, map[string]any{"job": map[string]any{"type": "Backfill", "payload": map[string]any{"days": 1, "hours": 2}}}, "Unknown field for job: hours"},
		{"ok", 1, tr, pf, map[string]any{"job": map[string]any{"type": "Reprocess", "payload": map[string]any{"since": "2024-01-01"}, "operation": "start"}}, ""},
		{"ok optional", 1, ia, s3, map[string]any{"job": map[string]any{"type": "Backfill", "payload": map[string]any{"days": 2, "dry_run": true}, "operation": "stop"}}, ""},
		{"ok empty payload", 2, ia, bq, map[string]any{"job": map[string]any{"type": "Sync now"}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := a.do(http.MethodPost, path(c.project, c.coll, c.id, "job"), full, c.body)
			if c.detail != "" {
				r.wantError(t, 400, "validation_error", "invalid_input", c.detail, "")
				return
			}
			r.want(t, 200)
			if len(r.body) != 0 {
				t.Errorf("job answered a body: %q", r.body)
			}
		})
	}
	jobs := a.srv.Jobs()
	if len(jobs) != 3 {
		t.Fatalf("jobs %v, want the 3 accepted", jobs)
	}
	j := jobs[1]
	if j.ConfigID != s3 || j.Project != 1 || j.Type != "Backfill" || j.Operation != "stop" ||
		string(j.Payload) != `{"days":2,"dry_run":true}` || time.Since(j.At) > time.Minute {
		t.Errorf("job run %+v", j)
	}
	if jobs[2].Operation != "start" || string(jobs[2].Payload) != "{}" || jobs[2].Project != 2 {
		t.Errorf("defaults: %+v", jobs[2])
	}
	a.do(http.MethodPost, path(1, tr, pf, "job"), full, "null").want(t, 500) // live: None.get
	// Unknown config, and config of the other collection: 404.
	a.do(http.MethodPost, path(1, tr, 999, "job"), full, cases[9].body).want(t, 404)
	a.do(http.MethodPost, path(1, ia, pf, "job"), full, cases[9].body).want(t, 404)
	if err := a.srv.ResetJobs(); err != nil || len(a.srv.Jobs()) != 0 {
		t.Errorf("ResetJobs: %v, %d left", err, len(a.srv.Jobs()))
	}
}

func TestFrontend(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	withJS := id(a.create(1, tr, full, map[string]any{"plugin": 2, "order": 1}))
	without := id(a.create(1, ia, full, map[string]any{"plugin": 3, "order": 1}))
	r := a.do(http.MethodGet, path(1, tr, withJS, "frontend"), full, nil).want(t, 200)
	if ct := r.header.Get("Content-Type"); ct != "application/javascript" {
		t.Errorf("Content-Type %q", ct)
	}
	if !strings.Contains(string(r.body), "getFrontendApp") || json.Valid(r.body) {
		t.Errorf("frontend body %q", r.body)
	}
	r = a.do(http.MethodGet, path(1, ia, without, "frontend"), full, nil).want(t, 200)
	if ct := r.header.Get("Content-Type"); ct != "application/javascript" || !strings.Contains(string(r.body), `"no_frontend": true`) {
		t.Errorf("stub: %q %q", ct, r.body)
	}
	a.do(http.MethodGet, path(1, tr, without, "frontend"), full, nil).wantError(t, 404, "invalid_request", "not_found", "Not found.", "")
	a.do(http.MethodGet, path(1, tr, 999, "frontend"), full, nil).want(t, 404)
}
