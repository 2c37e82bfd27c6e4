package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// unsavedJSON is a generation 2 create's answer: the config it did not save.
const unsavedJSON = `{"id": null, "plugin": 1, "enabled": true, "order": 0, "config": {}, "error": null,
 "team_id": 1, "plugin_info": {"name": "GeoIP"}, "delivery_rate_24h": null,
 "created_at": null, "updated_at": null, "name": "GeoIP", "description": "d", "deleted": false}`

func TestCreateUnsaved(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) { writeJSON(w, 201, unsavedJSON) })
	c := newTestClient(t, srv.URL)
	_, err := c.Create(context.Background(), "1", Transformations, RecordInput{Plugin: Some[int64](1), Order: Some[int64](0)})
	var unsaved *UnsavedError
	if !errors.As(err, &unsaved) || !IsUnsaved(err) {
		t.Fatalf("got %v, want an *UnsavedError", err)
	}
	if MayHaveApplied(err) {
		t.Error("an unsaved create is not a lost answer: nothing may search for or resend it")
	}
	if unsaved.Status != 201 || unsaved.Record == nil || unsaved.Record.Plugin != 1 || Deref(unsaved.Record.Name) != "GeoIP" {
		t.Errorf("error %+v, want the 201 and the unsaved record", unsaved)
	}
	if !strings.Contains(err.Error(), "POST /api/projects/1/pipeline_transformation_configs/: the service answered 201 Created with a config that has no id") {
		t.Errorf("message %q", err)
	}
	if srv.count() != 1 {
		t.Errorf("%d requests, want the one POST", srv.count())
	}
}

func TestCreationDisabled(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, 400, envelope("validation_error", "invalid_input",
			"Plugin creation is no longer possible. Please refer to the Hog Functions documentation for more information.", ""))
	})
	c := newTestClient(t, srv.URL)
	_, err := c.Create(context.Background(), "1", ImportApps, RecordInput{Plugin: Some[int64](4), Order: Some[int64](0)})
	if !IsCreationDisabled(err) || IsUnsaved(err) || MayHaveApplied(err) {
		t.Fatalf("got %v", err)
	}
	if srv.count() != 1 {
		t.Errorf("%d requests, want 1", srv.count())
	}
}

// TestServiceGone: a 404 of a record whose collection answers 404 too is
// the API gone, told by one probe per collection for the client's life;
// not a missing record.
func TestServiceGone(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, 404, envelope("invalid_request", "not_found", "Not found.", ""))
	})
	c := newTestClient(t, srv.URL)
	ctx := context.Background()

	_, err := c.Get(ctx, "1", Transformations, 5)
	var gone *ServiceGoneError
	if !errors.As(err, &gone) || IsNotFound(err) || StatusOf(err) != 0 {
		t.Fatalf("got %v (IsNotFound %v), want a *ServiceGoneError that is not a 404", err, IsNotFound(err))
	}
	want := "GET /api/projects/1/pipeline_transformation_configs/5/ answered 404 Not Found, and so does " +
		"/api/projects/1/pipeline_transformation_configs/: the service no longer offers the pipeline_transformation_configs API"
	if err.Error() != want {
		t.Errorf("message\n%q, want\n%q", err, want)
	}
	reqs := srv.requests()
	if len(reqs) != 2 || reqs[1].Path != "/api/projects/1/pipeline_transformation_configs/" || reqs[1].Query != "limit=1" {
		t.Fatalf("requests %+v, want the GET and one probe of the collection", reqs)
	}

	// Remembered: every later 404 of the collection costs no probe.
	for _, call := range []func() error{
		func() error {
			_, err := c.Update(ctx, "1", Transformations, 5, RecordInput{Deleted: Some(true)})
			return err
		},
		func() error { return c.Delete(ctx, "1", Transformations, 5) },
		func() error { return c.RunJob(ctx, "1", Transformations, 5, Job{Type: "x"}) },
		func() error { _, err := c.Frontend(ctx, "1", Transformations, 5); return err },
		func() error { _, err := c.Create(ctx, "1", Transformations, RecordInput{}); return err },
	} {
		before := srv.count()
		if err := call(); !IsServiceGone(err) || IsNotFound(err) {
			t.Errorf("got %v, want the API gone", err)
		}
		if srv.count() != before+1 {
			t.Errorf("%d requests, want 1 (no probe again)", srv.count()-before)
		}
	}

	// A list is the collection's own route: its 404 says it at once.
	before := srv.count()
	_, err = c.ListAll(ctx, "1", ImportApps)
	if !errors.As(err, &gone) || gone.Error() != "GET /api/projects/1/pipeline_import_apps_configs/?limit=100&offset=0 answered 404 Not Found: "+
		"the service no longer offers the pipeline_import_apps_configs API" {
		t.Errorf("list: %v", err)
	}
	if _, err := c.Get(ctx, "1", ImportApps, 6); !IsServiceGone(err) || srv.count() != before+2 {
		t.Errorf("after the list: %v, %d requests, want the gone API and no probe", err, srv.count()-before)
	}
}

// TestServiceGoneSharedLook: concurrent 404s share one look at the
// collection, and a request whose look was cut short by another request's
// context looks again under its own, rather than taking the 404 for a
// missing record (which a refresh would drop from state).
func TestServiceGoneSharedLook(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var probes, recordGETs atomic.Int32
	srv := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		if !isProbe(r) {
			recordGETs.Add(1)
		} else if probes.Add(1) == 1 { // the first look hangs until released or cancelled
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		writeJSON(w, 404, envelope("invalid_request", "not_found", "Not found.", ""))
	})
	c := newTestClient(t, srv.URL)

	first, cancelFirst := context.WithCancel(context.Background())
	firstErr := make(chan error, 1)
	go func() { _, err := c.Get(first, "1", Transformations, 5); firstErr <- err }()
	for probes.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	otherErr := make(chan error, 1)
	go func() { _, err := c.Get(context.Background(), "1", Transformations, 6); otherErr <- err }()
	for recordGETs.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // the other request joins the look
	cancelFirst()
	if err := <-firstErr; !errors.Is(err, context.Canceled) && !IsNotFound(err) {
		t.Errorf("the cancelled request: %v", err)
	}
	close(release)
	if err := <-otherErr; !IsServiceGone(err) || IsNotFound(err) {
		t.Fatalf("the other request got %v, want the API gone", err)
	}
	if n := probes.Load(); n != 2 {
		t.Errorf("%d looks, want 2: the one cut short and the other request's own", n)
	}
}

// TestNotFoundStaysNotFound: a missing record, an unknown project and a
// probe that fails otherwise keep the 404.
func TestNotFoundStaysNotFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("missing record", func(t *testing.T) {
		t.Parallel()
		srv := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			if answerProbe(w, r) {
				return
			}
			writeJSON(w, 404, envelope("invalid_request", "not_found", "Not found.", ""))
		})
		c := newTestClient(t, srv.URL)
		for range 3 {
			if _, err := c.Get(ctx, "1", Transformations, 5); !IsNotFound(err) || IsServiceGone(err) {
				t.Fatalf("got %v, want a 404", err)
			}
		}
		if srv.count() != 4 {
			t.Errorf("%d requests, want 3 GETs and one probe", srv.count())
		}
	})

	t.Run("missing record after a list", func(t *testing.T) {
		t.Parallel()
		srv := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "_configs/") {
				writeJSON(w, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
				return
			}
			writeJSON(w, 404, envelope("invalid_request", "not_found", "Not found.", ""))
		})
		c := newTestClient(t, srv.URL)
		if _, err := c.ListAll(ctx, "1", Transformations); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Get(ctx, "1", Transformations, 5); !IsNotFound(err) || IsServiceGone(err) {
			t.Fatalf("got %v, want a 404", err)
		}
		if reqs := srv.requests(); len(reqs) != 2 {
			t.Errorf("%d requests, want the list and the GET: the list told the collection is there", len(reqs))
		}
	})

	t.Run("unknown project", func(t *testing.T) {
		t.Parallel()
		srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 404, envelope("invalid_request", "not_found", "Project not found.", ""))
		})
		c := newTestClient(t, srv.URL)
		if _, err := c.Get(ctx, "9", Transformations, 5); !IsNotFound(err) {
			t.Fatalf("got %v", err)
		}
		if _, err := c.ListAll(ctx, "9", Transformations); !IsNotFound(err) || IsServiceGone(err) {
			t.Fatalf("list: got %v", err)
		}
		if srv.count() != 2 {
			t.Errorf("%d requests, want no probe", srv.count())
		}
	})

	t.Run("probe fails", func(t *testing.T) {
		t.Parallel()
		srv := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			if isProbe(r) {
				writeJSON(w, 500, `{}`)
				return
			}
			writeJSON(w, 404, envelope("invalid_request", "not_found", "Not found.", ""))
		})
		c := newTestClient(t, srv.URL)
		for range 2 {
			if _, err := c.Get(ctx, "1", Transformations, 5); !IsNotFound(err) {
				t.Fatalf("got %v, want the 404", err)
			}
		}
		if srv.count() != 4 {
			t.Errorf("%d requests, want a probe after each 404 while probes fail", srv.count())
		}
	})
}

// TestMissingAction: a 404 of a record's action while the record exists is
// the action gone (generation 2's job).
func TestMissingAction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var exists atomic.Bool
	exists.Store(true)
	srv := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		switch {
		case answerProbe(w, r):
		case r.Method == http.MethodGet && exists.Load(): // every record exists
			writeJSON(w, 200, recordJSON)
		default:
			writeJSON(w, 404, envelope("invalid_request", "not_found", "Not found.", ""))
		}
	})
	c := newTestClient(t, srv.URL)
	err := c.RunJob(ctx, "1", ImportApps, 42, Job{Type: "Backfill"})
	var missing *MissingActionError
	if !errors.As(err, &missing) || missing.Action != "job" || IsNotFound(err) {
		t.Fatalf("got %v, want the job action missing", err)
	}
	if want := "POST /api/projects/1/pipeline_import_apps_configs/42/job/ answered 404 Not Found although config 42 exists: " +
		"the service has no job action"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}

	// One record confirmed the action missing: the job of other records
	// costs their POST only.
	before := srv.count()
	for _, id := range []int64{43, 44, 45} {
		if err := c.RunJob(ctx, "1", ImportApps, id, Job{Type: "Backfill"}); !errors.As(err, &missing) || missing.ID != id {
			t.Fatalf("job of %d: got %v, want the job action missing", id, err)
		}
	}
	if n := srv.count() - before; n != 3 {
		t.Errorf("3 jobs of other records made %d requests, want their 3 POSTs", n)
	}
	if want := "POST /api/projects/1/pipeline_import_apps_configs/45/job/ answered 404 Not Found, as the job action of config 42 did " +
		"although that config exists: the service has no job action"; missing.Error() != want {
		t.Errorf("message %q, want %q", missing, want)
	}

	// Until then, a 404 of a record that is missing stands.
	exists.Store(false)
	fresh := newTestClient(t, srv.URL)
	if err := fresh.RunJob(ctx, "1", ImportApps, 42, Job{Type: "Backfill"}); !IsNotFound(err) || IsMissingAction(err) {
		t.Errorf("record gone: got %v, want the 404", err)
	}
}

// TestDropsFilters: records that come without a filters field (not null:
// absent) mark the service, whatever their collection.
func TestDropsFilters(t *testing.T) {
	t.Parallel()
	withoutFilters := strings.Replace(recordJSON, `, "filters": null`, "", 1)
	body := recordJSON
	srv := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("offset") != "" {
			writeJSON(w, 200, `{"count": 1, "next": null, "previous": null, "results": [`+body+`]}`)
			return
		}
		writeJSON(w, 200, body)
	})
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	if _, err := c.Get(ctx, "1", Transformations, 42); err != nil || c.DropsFilters() {
		t.Fatalf("filters null: %v, DropsFilters %v", err, c.DropsFilters())
	}
	body = withoutFilters
	fresh := newTestClient(t, srv.URL)
	if _, err := fresh.ListAll(ctx, "1", ImportApps); err != nil || !fresh.DropsFilters() {
		t.Fatalf("list without filters: %v, DropsFilters %v", err, fresh.DropsFilters())
	}
	if _, err := c.Get(ctx, "1", Transformations, 42); err != nil || !c.DropsFilters() {
		t.Fatalf("get without filters: %v", err)
	}
}

// Deref renders an optional string for the tests.
func Deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
