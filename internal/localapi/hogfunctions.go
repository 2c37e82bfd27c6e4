package localapi

import (
	"context"
	"encoding/json"
	"time"
)

// The generation 2 refusals, worded as the service words them.
const (
	// DetailCreationDisabled answers a create of a config the service
	// cannot make a hog function of.
	DetailCreationDisabled = "Plugin creation is no longer possible. Please refer to the Hog Functions documentation for more information."
	// DetailNoMigration answers a migrate of a config whose plugin has no
	// migrator.
	DetailNoMigration = "No migration available for this plugin"
)

// HogFunction is a hog function: one the service made of a plugin config
// from generation 2 on (a create, which stores no config, migrate, or the
// bulk migration), or one made through the hog function API
// (hogfunction_api.go).
type HogFunction struct {
	// ID is a UUID (version 7), as PostHog's hog functions have.
	ID      string `json:"id"`
	Project int64  `json:"project"`
	// Plugin is the plugin whose config the function was made of; 0 for
	// one made through the hog function API. The service keeps no such
	// field: only tests see it.
	Plugin int64 `json:"plugin"`
	// Type is what the API was sent (destination by default), the
	// template's on a create of a config, the migrator's on migrate and
	// transformation in the bulk migration.
	Type        string `json:"type"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Enabled     bool   `json:"enabled"`
	// TemplateID names the template it was made from (hogTemplates), ""
	// without one: write-only in the API, which answers the template.
	TemplateID string `json:"template_id"`
	// SourceConfigID is the config migrate or the bulk migration made it
	// of; nil otherwise. The service keeps no such field either.
	SourceConfigID *int64 `json:"source_config_id"`
	// Inputs are {"<key>": {"value": v, ...}}, secret values as they were
	// sent (in process only: the debug route and the API mask them).
	Inputs  json.RawMessage `json:"inputs"`
	Filters json.RawMessage `json:"filters"`
	// ExecutionOrder is nil when the function has none.
	ExecutionOrder *int64 `json:"execution_order"`
	// Hog and InputsSchema are nil in rows an older local API stored while
	// they were the template's.
	Hog          *string         `json:"hog"`
	InputsSchema json.RawMessage `json:"inputs_schema"`
	IconURL      *string         `json:"icon_url"`
	// Deleted is PostHog's soft delete (PATCH {"deleted": true}): the API
	// no longer shows the function.
	Deleted   bool      `json:"deleted"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// HogFunctions returns every hog function made, oldest first.
func (s *Server) HogFunctions() []HogFunction {
	hfs, err := s.store.hogFunctions(context.Background())
	if err != nil {
		s.log.Error("reading hog functions", "err", err)
	}
	return hfs
}

// ResetHogFunctions forgets the hog functions made.
func (s *Server) ResetHogFunctions() error { return s.store.resetHogFunctions(context.Background()) }
