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
