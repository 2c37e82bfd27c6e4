package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestPaths(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/frontend/"):
			w.Header().Set("Content-Type", "application/javascript")
			_, _ = w.Write([]byte("export {}"))
		case strings.HasSuffix(r.URL.Path, "/job/"), r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "_configs/"):
			writeJSON(w, 200, `{"count":0,"results":[]}`)
		default:
			success(w, r)
		}
	})
	ctx := context.Background()
	for _, tt := range []struct {
		host, project, prefix string
	}{
		{srv.URL, "1", ""},
		{srv.URL + "/", "@current", ""},
		{srv.URL + "/posthog/", "12", "/posthog"},
		{srv.URL + "/a/b", "weird/id", "/a/b"},
	} {
		c := newTestClient(t, tt.host)
		before := srv.count()
		ops := []func() error{
			func() error { _, err := c.List(ctx, tt.project, Transformations, 10, 0); return err },
			func() error { _, err := c.Get(ctx, tt.project, Transformations, 42); return err },
			func() error { _, err := c.Create(ctx, tt.project, ImportApps, RecordInput{}); return err },
			func() error { _, err := c.Update(ctx, tt.project, ImportApps, 42, RecordInput{}); return err },
			func() error { return c.Delete(ctx, tt.project, Transformations, 42) },
			func() error { _, err := c.Frontend(ctx, tt.project, Transformations, 42); return err },
			func() error { return c.RunJob(ctx, tt.project, ImportApps, 42, Job{Type: "x"}) },
		}
		for i, op := range ops {
			if err := op(); err != nil {
				t.Fatalf("%s op %d: %v", tt.host, i, err)
			}
		}
		proj := strings.ReplaceAll(tt.project, "/", "%2F")
		base := tt.prefix + "/api/projects/" + proj + "/"
		want := []string{
			"GET " + base + "pipeline_transformation_configs/",
			"GET " + base + "pipeline_transformation_configs/42/",
			"POST " + base + "pipeline_import_apps_configs/",
			"PATCH " + base + "pipeline_import_apps_configs/42/",
			"DELETE " + base + "pipeline_transformation_configs/42/",
			"GET " + base + "pipeline_transformation_configs/42/frontend/",
			"POST " + base + "pipeline_import_apps_configs/42/job/",
		}
		reqs := srv.requests()[before:]
		for i, w := range want {
			if got := reqs[i].Method + " " + reqs[i].Path; got != w {
				t.Errorf("host %s: got %q, want %q", tt.host, got, w)
			}
		}
	}
}

func TestEmptyProjectIsRefused(t *testing.T) {
	c := newTestClient(t, "http://127.0.0.1:1")
	if _, err := c.Get(context.Background(), " ", Transformations, 1); err == nil || !strings.Contains(err.Error(), "project") {
		t.Fatalf("want an error about the project, got %v", err)
	}
}

func TestFrontend(t *testing.T) {
	tests := []struct{ ctype, body string }{
		{"application/javascript", "\"use strict\";\nexport function scene() { return 1 }\n"},
		{"application/json", `{"id": 42, "plugin": 7}`},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.ctype, func(t *testing.T) {
			srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
				if tt.ctype != "" {
					w.Header().Set("Content-Type", tt.ctype)
				} else {
					w.Header()["Content-Type"] = nil
				}
				_, _ = w.Write([]byte(tt.body))
			})
			c := newTestClient(t, srv.URL)
			fe, err := c.Frontend(context.Background(), "1", Transformations, 42)
			if err != nil {
				t.Fatal(err)
			}
			if fe.Content != tt.body || fe.ContentType != tt.ctype {
				t.Fatalf("got %+v", fe)
			}
			if srv.requests()[0].Header.Get("Accept") != "*/*" {
				t.Fatalf("Accept %q", srv.requests()[0].Header.Get("Accept"))
			}
		})
	}
}

func TestRunJob(t *testing.T) {
	for _, answer := range []struct {
		status int
		body   string
	}{{200, ""}, {200, `{"id": 42}`}, {202, "queued"}, {204, ""}} {
		srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(answer.status)
			_, _ = w.Write([]byte(answer.body))
		})
		c := newTestClient(t, srv.URL)
		job := Job{Type: "Export events", Payload: json.RawMessage(`{"dateFrom": "2024-01-01"}`), Operation: "start"}
		if err := c.RunJob(context.Background(), "1", ImportApps, 42, job); err != nil {
			t.Fatalf("answer %d %q: %v", answer.status, answer.body, err)
		}
		req := srv.requests()[0]
		want := `{"job":{"type":"Export events","payload":{"dateFrom":"2024-01-01"},"operation":"start"}}`
		if req.Method != http.MethodPost || string(req.Body) != want || req.ContentType != "application/json" {
			t.Fatalf("sent %s %s %s", req.Method, req.ContentType, req.Body)
		}
	}

	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, envelope("validation_error", "invalid_input", "Unknown plugin job: 'x'", ""))
	})
	c := newTestClient(t, srv.URL)
	err := c.RunJob(context.Background(), "1", ImportApps, 42, Job{Type: "x"})
	if StatusOf(err) != 400 || !strings.Contains(err.Error(), "Unknown plugin job: 'x'") {
		t.Fatalf("got %v", err)
	}
	if err := c.RunJob(context.Background(), "1", ImportApps, 42, Job{Type: "x", Payload: json.RawMessage("{nope")}); err == nil || srv.count() != 1 {
		t.Fatalf("an invalid payload must be refused before sending: %v", err)
	}
}

func TestDeleteAcceptsAny2xx(t *testing.T) {
	for _, status := range []int{200, 202, 204} {
		srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) })
		c := newTestClient(t, srv.URL)
		if err := c.Delete(context.Background(), "1", Transformations, 42); err != nil {
			t.Fatalf("%d: %v", status, err)
		}
	}
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(500)
	})
	c := newTestClient(t, srv.URL)
	if err := c.Delete(context.Background(), "1", Transformations, 4242); StatusOf(err) != http.StatusInternalServerError || srv.count() != 1 {
		t.Fatalf("live DELETE of an unknown id: want one 500, got %v after %d", err, srv.count())
	}
}

func TestCreateAndUpdateReturnTheRecord(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
	c := newTestClient(t, srv.URL)
	rec, err := c.Create(context.Background(), "1", Transformations, RecordInput{Plugin: Some[int64](7), Order: Some[int64](3)})
	if err != nil || rec.ID != 42 || rec.Plugin != 7 {
		t.Fatalf("create: %+v %v", rec, err)
	}
	rec, err = c.Update(context.Background(), "1", Transformations, 42, RecordInput{Deleted: Some(true)})
	if err != nil || rec.ID != 42 {
		t.Fatalf("update: %+v %v", rec, err)
	}
}

func TestCreateWithoutIDIsAnError(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { writeJSON(w, 201, `{}`) })
	c := newTestClient(t, srv.URL)
	if _, err := c.Create(context.Background(), "1", Transformations, RecordInput{}); !IsUnsaved(err) || !strings.Contains(err.Error(), "no id") {
		t.Fatalf("got %v", err)
	}
}

// TestConcurrentUse runs many operations on one client at once, for the
// race detector and for the per-call state.
func TestConcurrentUse(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n%3 == 0 {
			writeJSON(w, 503, envelope("server_error", "x", "busy", ""))
			return
		}
		success(w, r)
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.RequestsPerMinute = 100000; c.MaxRetries = 10 })
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		go func() {
			_, err := c.Get(context.Background(), "1", Transformations, 42)
			errs <- err
		}()
	}
	for i := 0; i < 40; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
