package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// pluginPager serves total plugins, ids 1..total, by limit and offset.
func pluginPager(total int) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, r *http.Request) {
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		results := []map[string]any{}
		for i := offset; i < total && i < offset+limit; i++ {
			results = append(results, map[string]any{"id": i + 1, "name": fmt.Sprint("p", i+1), "config_schema": []any{}})
		}
		writeJSON(w, 200, map[string]any{"count": total, "next": nil, "previous": nil, "results": results})
	}
}

func TestListPluginsWalksEveryPage(t *testing.T) {
	srv := newRecorder(t, pluginPager(5))
	c := newTestClient(t, srv.URL, func(c *Config) { c.PageSize = 2 })
	plugins, err := c.ListPlugins(context.Background(), CurrentOrganization, Transformations.PluginListing())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range plugins {
		got = append(got, fmt.Sprint(p.ID, *p.Name))
	}
	if strings.Join(got, " ") != "1p1 2p2 3p3 4p4 5p5" {
		t.Fatalf("plugins %v", got)
	}
	var queries []string
	for _, r := range srv.requests() {
		if r.Path != "/api/organizations/@current/pipeline_transformations/" {
			t.Fatalf("path %s", r.Path)
		}
		queries = append(queries, r.Query)
	}
	if want := "limit=2&offset=0 limit=2&offset=2 limit=2&offset=4"; strings.Join(queries, " ") != want {
		t.Fatalf("queries %q, want %q", queries, want)
	}
}

func TestPluginListingOfEachCollection(t *testing.T) {
	for coll, want := range map[Collection]PluginListing{Transformations: TransformationPlugins, ImportApps: ImportAppPlugins, "other": AllPlugins} {
		if got := coll.PluginListing(); got != want {
			t.Errorf("%s: %s, want %s", coll, got, want)
		}
	}
}

// TestListPluginsKeepsTheBudget: the listing walks pages through ListAll's
// loop, with its budgets.
func TestListPluginsKeepsTheBudget(t *testing.T) {
	srv := newRecorder(t, endless(0, forward))
	_, err := newTestClient(t, srv.URL).ListPlugins(context.Background(), "0189-org", AllPlugins)
	if err == nil || !strings.Contains(err.Error(), "listing plugins of organization 0189-org: stopped at the budget of one listing (200 pages or 64 MiB)") {
		t.Fatalf("want the page budget, got %v", err)
	}
	if srv.count() != MaxListPages || srv.requests()[0].Path != "/api/organizations/0189-org/plugins/" {
		t.Errorf("%d pages of %s", srv.count(), srv.requests()[0].Path)
	}
	srv = newRecorder(t, pluginPager(1_000_000))
	if _, err := newTestClient(t, srv.URL).ListPlugins(context.Background(), CurrentOrganization, AllPlugins); err == nil ||
		!strings.Contains(err.Error(), "counts 1000000 records, past the budget") || srv.count() != 1 {
		t.Fatalf("want the count refused after one page, got %v after %d", err, srv.count())
	}
}

func TestPluginListingErrors(t *testing.T) {
	answer := func(status int, detail string) *Client {
		srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, status, envelope("invalid_request", "x", detail, ""))
		})
		return newTestClient(t, srv.URL)
	}
	ctx := context.Background()

	_, err := answer(403, "API keys with scoped projects are only supported on project-based endpoints.").ListPlugins(ctx, CurrentOrganization, ImportAppPlugins)
	if !IsProjectScopedKey(err) || !IsForbidden(err) || IsKeyRefused(err) {
		t.Errorf("a project-limited key: %v", err)
	}
	_, err = answer(403, "API key missing required scope 'plugin:read'").ListPlugins(ctx, CurrentOrganization, ImportAppPlugins)
	if IsProjectScopedKey(err) || !IsForbidden(err) {
		t.Errorf("a missing scope: %v", err)
	}
	_, err = answer(404, "Organization not found.").ListPlugins(ctx, "nope", AllPlugins)
	if !IsOrganizationNotFound(err) || !IsNotFound(err) || IsServiceGone(err) {
		t.Errorf("an unknown organization: %v", err)
	}
	for _, detail := range []string{"Not found.", "Endpoint not found."} {
		_, err = answer(404, detail).ListPlugins(ctx, CurrentOrganization, TransformationPlugins)
		if !IsServiceGone(err) || IsNotFound(err) || IsOrganizationNotFound(err) ||
			!strings.Contains(err.Error(), "the service no longer offers the pipeline_transformations API") {
			t.Errorf("a listing that is gone (%s): %v", detail, err)
		}
	}
}

func TestPluginByID(t *testing.T) {
	ctx := context.Background()
	t.Run("found", func(t *testing.T) {
		srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 200, `{"id": 7, "name": "GeoIP", "hog_function_migration_available": true}`)
		})
		p, err := newTestClient(t, srv.URL).Plugin(ctx, CurrentOrganization, 7)
		if err != nil || p.ID != 7 || *p.Name != "GeoIP" || p.MigrationAvailable == nil || !*p.MigrationAvailable {
			t.Fatalf("%+v, %v", p, err)
		}
		if path := srv.requests()[0].Path; path != "/api/organizations/@current/plugins/7/" {
			t.Errorf("path %s", path)
		}
	})
	t.Run("missing, the listing there", func(t *testing.T) {
		srv := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/plugins/") {
				writeJSON(w, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
				return
			}
			writeJSON(w, 404, envelope("invalid_request", "not_found", "Not found.", ""))
		})
		_, err := newTestClient(t, srv.URL).Plugin(ctx, CurrentOrganization, 7)
		if !IsNotFound(err) || IsServiceGone(err) {
			t.Errorf("a missing plugin: %v", err)
		}
	})
	t.Run("the listings gone", func(t *testing.T) {
		srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 404, envelope("invalid_request", "not_found", "Not found.", ""))
		})
		_, err := newTestClient(t, srv.URL).Plugin(ctx, CurrentOrganization, 7)
		if !IsServiceGone(err) || !strings.Contains(err.Error(), "GET /api/organizations/@current/plugins/7/ answered 404 Not Found, and so does /api/organizations/@current/plugins/") {
			t.Errorf("no listings: %v", err)
		}
		if srv.count() != 2 {
			t.Errorf("%d requests, want the GET and one look at the listing", srv.count())
		}
	})
	t.Run("an unknown organization", func(t *testing.T) {
		srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 404, envelope("invalid_request", "not_found", "Organization not found.", ""))
		})
		_, err := newTestClient(t, srv.URL).Plugin(ctx, "x", 7)
		if !IsOrganizationNotFound(err) || srv.count() != 1 {
			t.Errorf("%v after %d requests", err, srv.count())
		}
	})
}

// TestPluginDecodesLeniently: the odd shapes plugins come in lose no other
// fact.
func TestPluginDecodesLeniently(t *testing.T) {
	var p Plugin
	in := `{"id": "5", "plugin_type": "repository", "name": 12, "description": null, "url": "inline://semver-flattener",
		"config_schema": {"apiKey": {"type": "string", "secret": true}}, "tag": null, "is_global": "true",
		"organization_id": 42, "organization_name": "Org", "metrics": {}, "public_jobs": null, "extra": [1]}`
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	switch {
	case p.ID != 5 || p.Name != nil || p.Description != nil:
		t.Errorf("scalars %+v", p)
	case p.URL == nil || *p.URL != "inline://semver-flattener":
		t.Errorf("text %+v", p)
	case p.MigrationAvailable != nil:
		t.Errorf("absent fields %+v", p)
	case string(p.PublicJobs) != "null":
		t.Errorf("raw fields %s", p.PublicJobs)
	case strings.Contains(string(p.JSON), "\n") || !strings.Contains(string(p.JSON), `"extra":[1]`):
		t.Errorf("JSON %s", p.JSON)
	}
	// A page of them, with a config_schema of either form or none.
	page, err := decodePage[Plugin]([]byte(`{"count": "3", "results": [{"id": 1, "config_schema": [{"key": "k"}]},
		{"id": 2, "description": "", "hog_function_migration_available": false}, {"id": 3, "capabilities": "odd"}]}`))
	if err != nil || page.Count != 3 || len(page.Results) != 3 || page.Results[1].MigrationAvailable == nil ||
		*page.Results[1].MigrationAvailable || *page.Results[1].Description != "" {
		t.Fatalf("page %+v, %v", page, err)
	}
	for _, bad := range []string{`[1]`, `null`, `{"id": "five"}`} {
		if err := json.Unmarshal([]byte(bad), &p); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}
