package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// Snapshot is every config of the test project by id, as the service
// stores it: from the local API's store (own text, secrets unmasked,
// deleted configs too), or, against a live instance, as answers show it.
type Snapshot map[int64]localapi.StoredRecord

// Snapshot reads the project's configs. Against a live instance, where
// lists leave deleted configs out, the configs of also that no list shows
// are read one by one.
func (e *Env) Snapshot(ctx context.Context, also Snapshot) (Snapshot, error) {
	if e.Local != nil {
		project, err := strconv.ParseInt(e.ProjectID, 10, 64)
		if err != nil {
			return nil, err
		}
		recs, err := e.Local.StoredRecords(project)
		return Snapshot(recs), err
	}
	snap := Snapshot{}
	for _, kind := range Kinds {
		recs, err := e.API.ListAll(ctx, e.ProjectID, Collection(kind))
		if err != nil {
			return nil, err
		}
		for i := range recs {
			snap[recs[i].ID] = storedOf(&recs[i])
		}
	}
	for id, was := range also {
		if _, ok := snap[id]; ok {
			continue
		}
		kind := "import_app"
		if k, ok := e.Catalog.Plugin(was.Plugin); ok && kindOf(k) == "transformation" {
			kind = "transformation"
		}
		rec, err := e.API.Get(ctx, e.ProjectID, Collection(kind), id)
		if err != nil {
			return nil, fmt.Errorf("reading config %d: %w", id, err)
		}
		snap[id] = storedOf(rec)
	}
	return snap, nil
}

// storedOf is a config as an answer shows it (the plugin's text for its
// own where it has none, secrets masked).
func storedOf(r *client.Record) localapi.StoredRecord {
	micros := func(s string) int64 {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return 0
		}
		return t.UnixMicro()
	}
	var filters json.RawMessage
	if len(r.Filters) > 0 && string(r.Filters) != "null" {
		filters = r.Filters
	}
	return localapi.StoredRecord{
		ID: r.ID, Plugin: r.Plugin, Order: r.Order, Enabled: r.Enabled, Deleted: r.Deleted,
		Name: r.Name, Description: r.Description, Filters: filters, Config: r.Settings,
		CreatedAt: micros(r.CreatedAt), UpdatedAt: micros(r.UpdatedAt),
	}
}
