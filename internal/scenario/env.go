package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
)

// Env is where a scenario runs: the service, the provider's settings, and
// the plugins configs are made of.
type Env struct {
	// T runs the harness (provider servers, clients); failures of the
	// scenario itself go through rapid.
	T testing.TB
	// Host, Key and Project are the provider's settings; Project is the
	// test project's id or "@current".
	Host, Key, Project string
	// ProjectID is the test project's id.
	ProjectID string
	// Local is the in-process local API; nil against a live instance.
	Local *localapi.Server
	// API has full access to the service, for the oracle and for changes
	// behind Terraform's back.
	API *client.Client
	// Catalog holds the plugins. Against a live instance it holds the
	// plugins the tests are given, as the service describes them.
	Catalog *Catalog
	// Scratch is the project where the oracle tries values; "" against a
	// live instance, where the oracle uses the test project.
	Scratch string
	// MaxCreates bounds the configs a scenario creates (live mode), the
	// oracle's included; Creates counts them.
	MaxCreates, Creates int
	// Preexisting holds the configs the project had before the scenario
	// (live mode), which it does not account for.
	Preexisting map[int64]bool

	// kills stands between the provider and the local API, to kill apply
	// walks at a request boundary (nil against a live instance).
	kills *killSwitch
	close func()
}

// LocalEnv starts a local API of the scenario's own with the catalog, as
// version v of the service, its first config id firstID (0: 1), and sets
// the provider up for project 1 (by its id or as "@current"). Close stops
// the API. With SCENARIO_DEBUG set, every request is logged (with rapid's
// output of the failing scenario), to see what a step sent.
func LocalEnv(t testing.TB, cat *Catalog, current bool, v localapi.Version, firstID int64) *Env {
	t.Helper()
	srv, err := localapi.New(localapi.Options{Plugins: slices.Clone(cat.Plugins), Version: v, FirstConfigID: firstID})
	if err != nil {
		t.Fatal(err)
	}
	kills := &killSwitch{next: srv}
	var h http.Handler = kills
	if os.Getenv("SCENARIO_DEBUG") != "" {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			t.Logf("DEBUG %s %s %s", time.Now().Format("15:04:05.000000"), r.Method, r.URL.Path)
			kills.ServeHTTP(w, r)
		})
	}
	ts := httptest.NewServer(h)
	project := "1"
	if current {
		project = "@current"
	}
	return &Env{
		T: t, Host: ts.URL, Key: acctest.KeyFull, Project: project, ProjectID: "1", Local: srv,
		API: acctest.ClientFor(t, ts.URL, acctest.KeyFull), Catalog: cat, Scratch: "2", kills: kills,
		close: func() {
			ts.Close()
			if err := srv.Close(); err != nil {
				t.Error(err)
			}
		},
	}
}

// LiveEnv sets a scenario up against a running service that is not the
// scenario's own (a live instance): the provider uses host, key and project
// (an id); the catalog holds plugins by id and kind only, since the
// scenario cannot read or change the service's plugins (no secret keys, no
// upgrades); the oracle tries values in the project itself and removes what
// it makes; a scenario creates at most maxCreates configs and accounts only
// for configs it did not find there.
func LiveEnv(t testing.TB, host, key, project string, plugins map[string][]int64, maxCreates int) *Env {
	t.Helper()
	cat := &Catalog{}
	for _, kind := range Kinds {
		for _, id := range plugins[kind] {
			p := localapi.Plugin{ID: id}
			if kind == "transformation" {
				p.Capabilities.Methods = []string{"processEvent"}
			} else {
				p.Capabilities.ScheduledTasks = []string{"runEveryHour"}
			}
			cat.Plugins = append(cat.Plugins, p)
		}
	}
	e := &Env{
		T: t, Host: host, Key: key, Project: project, ProjectID: project,
		API: acctest.ClientFor(t, host, key), Catalog: cat, MaxCreates: maxCreates,
	}
	ids, err := e.ActiveIDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e.Preexisting = ids
	return e
}

// RemoveCreated soft-deletes every config the project lists that was not
// there when the environment was set up: what a live scenario leaves.
func (e *Env) RemoveCreated(ctx context.Context) error {
	var errs []error
	for _, kind := range Kinds {
		recs, err := e.API.ListAll(ctx, e.ProjectID, Collection(kind))
		if err != nil {
			return err
		}
		for _, r := range recs {
			if e.Preexisting[r.ID] {
				continue
			}
			if _, err := e.API.Update(ctx, e.ProjectID, Collection(kind), r.ID, client.RecordInput{Deleted: client.Some(true)}); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// Close stops what the environment started.
func (e *Env) Close() {
	if e.close != nil {
		e.close()
	}
}

// Server returns a new provider server, configured as the scenario's
// provider block says, that journals its creates in journal (a working
// directory and workspace of its own): Terraform starts one for each walk.
// The caller ends it with createonce.Release.
func (e *Env) Server(journal string) *acctest.ProviderServer {
	return acctest.NewProviderServerWith(e.T, map[string]tftypes.Value{
		"host":       tftypes.NewValue(tftypes.String, e.Host),
		"api_key":    tftypes.NewValue(tftypes.String, e.Key),
		"project_id": tftypes.NewValue(tftypes.String, e.Project),
	}, provider.WithCreateJournal(journal))
}

// ProviderHCL is the scenario's provider block (the key elided against a
// live instance).
func (e *Env) ProviderHCL() string {
	key := e.Key
	if e.Local == nil {
		key = "(POSTHOG_API_KEY)"
	}
	return fmt.Sprintf("provider \"pipeline\" {\n  host       = %q\n  api_key    = %q\n  project_id = %q\n}\n", e.Host, key, e.Project)
}

// Collection is the API collection of a kind.
func Collection(kind string) client.Collection {
	if kind == "transformation" {
		return client.Transformations
	}
	return client.ImportApps
}

// Accepts asks the service whether it accepts the values of c, as the
// provider would send them on create: it creates a config of them in the
// scratch project and soft-deletes it again. The answer is the service's
// own judgment of the values, which the provider's must match.
func (e *Env) Accepts(ctx context.Context, c *Config) (bool, string, error) {
	ok, why, _, err := e.judge(ctx, c)
	return ok, why, err
}

// judge is Accepts, which also returns the filters the service stored.
func (e *Env) judge(ctx context.Context, c *Config) (bool, string, json.RawMessage, error) {
	in := client.RecordInput{Plugin: client.Some(c.Plugin), Order: client.Some(int64(0)), Enabled: client.Some(false)}
	if c.Order != nil {
		in.Order = client.Some(*c.Order)
	}
	if c.Enabled != nil {
		in.Enabled = client.Some(*c.Enabled)
	}
	if c.Name != nil {
		in.Name = client.Some(*c.Name)
	}
	if c.Description != nil {
		in.Description = client.Some(*c.Description)
	}
	if c.Filters != nil {
		in.Filters = client.Some(json.RawMessage(*c.Filters))
	}
	if c.Settings != nil || c.Secret != nil {
		merged := map[string]json.RawMessage{}
		for _, text := range []*string{c.Settings, c.Secret} {
			if text == nil {
				continue
			}
			var obj map[string]json.RawMessage
			if err := json.Unmarshal([]byte(*text), &obj); err != nil {
				return false, "", nil, fmt.Errorf("generated settings are not a JSON object: %w", err)
			}
			maps.Copy(merged, obj)
		}
		b, err := json.Marshal(merged)
		if err != nil {
			return false, "", nil, err
		}
		in.Settings = client.Some(json.RawMessage(b))
	}
	project := e.Scratch
	if project == "" {
		project = e.ProjectID
	}
	rec, err := e.API.Create(ctx, project, Collection(c.Kind), in)
	if err == nil {
		e.Creates++
	}
	var apiErr *client.APIError
	switch {
	case err == nil:
		e.learnSchema(rec)
		del := client.RecordInput{Deleted: client.Some(true)}
		if _, err := e.API.Update(ctx, project, Collection(c.Kind), rec.ID, del); err != nil {
			return true, "", nil, fmt.Errorf("removing the oracle's config %d: %w", rec.ID, err)
		}
		return true, "", rec.Filters, nil
	case errors.As(err, &apiErr):
		// A 400, or a 500 of values the service's database refuses (a
		// number past a double): refused either way.
		return false, apiErr.Error(), nil, nil
	}
	return false, "", nil, err
}

// learnSchema takes a live plugin's config_schema from a record's
// plugin_info into the catalog, which against a live instance holds
// plugins by id only: the scenario needs their secret keys to tell what
// an apply changed.
func (e *Env) learnSchema(rec *client.Record) {
	if e.Local != nil {
		return
	}
	var info struct {
		ConfigSchema *localapi.ConfigSchema `json:"config_schema"`
	}
	if json.Unmarshal(rec.PluginInfo, &info) != nil || info.ConfigSchema == nil {
		return
	}
	for i := range e.Catalog.Plugins {
		if e.Catalog.Plugins[i].ID == rec.Plugin {
			e.Catalog.Plugins[i].ConfigSchema = *info.ConfigSchema
		}
	}
}

// ActiveIDs lists the ids of every config the service lists (lists leave
// out deleted configs) in the test project, both collections.
func (e *Env) ActiveIDs(ctx context.Context) (map[int64]bool, error) {
	ids := map[int64]bool{}
	for _, kind := range Kinds {
		recs, err := e.API.ListAll(ctx, e.ProjectID, Collection(kind))
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			ids[r.ID] = true
		}
	}
	return ids, nil
}

// Counters reads the local API's request counters (nil against a live
// instance).
func (e *Env) Counters() map[string]int64 {
	if e.Local == nil {
		return nil
	}
	return e.Local.Counters()
}
