package localapi

import (
	"context"
	"encoding/json"
	"fmt"
)

// StoredConfig returns the config of record id in project as the store
// holds it, secret values unmasked: for tests that check which secrets a
// client sent, which no response shows. Not reachable over HTTP.
func (s *Server) StoredConfig(project, id int64) (json.RawMessage, error) {
	rec, err := s.store.find(context.Background(), project, id)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, fmt.Errorf("no config %d in project %d", id, project)
	}
	return rec.Config, nil
}

// StoredRecord is a config as the store holds it: its own name and
// description (not the plugin's that answers show for them), filters and
// settings as stored, secret values unmasked.
type StoredRecord struct {
	ID, Plugin, Order    int64
	Enabled, Deleted     bool
	Name, Description    *string
	Filters              json.RawMessage // nil: null
	Config               json.RawMessage
	CreatedAt, UpdatedAt int64 // Unix microseconds
}

// StoredRecords returns every config of project as the store holds it,
// deleted ones too, by id: for tests that check what a client changed,
// field by field. Not reachable over HTTP.
func (s *Server) StoredRecords(project int64) (map[int64]StoredRecord, error) {
	recs, err := s.store.all(context.Background(), project)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]StoredRecord, len(recs))
	for _, r := range recs {
		out[r.ID] = StoredRecord{
			ID: r.ID, Plugin: r.Plugin, Order: r.Order, Enabled: r.Enabled, Deleted: r.Deleted,
			Name: r.Name, Description: r.Description, Filters: r.Filters, Config: r.Config,
			CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		}
	}
	return out, nil
}
