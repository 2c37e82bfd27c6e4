package localapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// The generation 2 refusals, worded as the service words them.
const (
	// DetailCreationDisabled answers a create of a config whose plugin has
	// no migrator.
	DetailCreationDisabled = "Plugin creation is no longer possible. Please refer to the Hog Functions documentation for more information."
	// DetailNoMigration answers a migrate of such a config.
	DetailNoMigration = "No migration available for this plugin"
)

// HogFunction is a hog function: one the service made of a plugin config
// from generation 2 on (a create, which stores no config, or migrate), or
// one made through the hog function API (hogfunction_api.go).
type HogFunction struct {
	// ID is a UUID (version 7), as PostHog's hog functions have.
	ID      string `json:"id"`
	Project int64  `json:"project"`
	// Plugin is the plugin the function was made of, or whose template it
	// was created from; 0 for a function of its own code.
	Plugin int64 `json:"plugin"`
	// Type is transformation (a plugin with processEvent), source_webhook
	// (an import app) or destination (any other) when made of a config; what
	// the API was sent (destination by default) otherwise.
	Type        string `json:"type"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Enabled     bool   `json:"enabled"`
	// TemplateID is "plugin-" and the plugin's URL without its
	// https://github.com/PostHog/ or inline:// prefix (its ID without one),
	// as PostHog's legacy plugin templates are named; "" without a
	// template.
	TemplateID string `json:"template_id"`
	// SourceConfigID is the config migrate made it of; nil otherwise.
	SourceConfigID *int64 `json:"source_config_id"`
	// Inputs are {"<key>": {"value": v, ...}}, secret values as they were
	// sent (in process only: the debug route and the API mask them).
	Inputs  json.RawMessage `json:"inputs"`
	Filters json.RawMessage `json:"filters"`
	// ExecutionOrder is nil when the function has none.
	ExecutionOrder *int64 `json:"execution_order"`
	// Hog and InputsSchema are nil while they are the template's, the
	// plugin's (templateOf).
	Hog          *string         `json:"hog"`
	InputsSchema json.RawMessage `json:"inputs_schema"`
	// Deleted is PostHog's soft delete (PATCH {"deleted": true}): the API
	// no longer shows the function.
	Deleted   bool      `json:"deleted"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// hogFunctionOf builds the hog function PostHog's migrator makes of rec, a
// config of plugin p: its name and description as answers show them, its
// enabled flag and order, its settings as inputs and its filters. source
// is rec's ID for migrate, nil for a create.
func hogFunctionOf(p *catalogEntry, rec *record, source *int64) (*HogFunction, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	var settings map[string]json.RawMessage
	if err := json.Unmarshal(rec.Config, &settings); err != nil {
		return nil, err
	}
	inputs := make(map[string]map[string]json.RawMessage, len(settings))
	for k, v := range settings {
		inputs[k] = map[string]json.RawMessage{"value": v}
	}
	rawInputs, err := marshalJSON(inputs)
	if err != nil {
		return nil, err
	}
	filters := rec.Filters
	if filters == nil {
		filters = json.RawMessage(`{}`)
	}
	order, now := rec.Order, time.Now().UTC()
	return &HogFunction{
		ID: id.String(), Project: rec.Team, Plugin: p.ID, Type: p.hogFunctionType(),
		Name: deref(rec.shownName(p)), Description: deref(rec.shownDescription(p)), Enabled: rec.Enabled,
		TemplateID: p.templateID(), SourceConfigID: source, Inputs: rawInputs, Filters: filters,
		ExecutionOrder: &order, CreatedAt: now, UpdatedAt: now,
	}, nil
}

func (p *Plugin) hogFunctionType() string {
	switch {
	case p.isTransformation():
		return "transformation"
	case p.isImportApp():
		return "source_webhook"
	}
	return "destination"
}

// templateID follows hog_function_from_plugin_config (the notes' "What a
// migration makes"): the plugin's url without https://github.com/PostHog/
// or inline://, with -plugin after the two inline plugins whose templates
// are so named; the plugin's ID without a url (*choice*).
func (p *Plugin) templateID() string {
	if p.URL == "" {
		return "plugin-" + strconv.FormatInt(p.ID, 10)
	}
	slug := strings.TrimPrefix(strings.TrimPrefix(p.URL, "https://github.com/PostHog/"), "inline://")
	if slug == "semver-flattener" || slug == "user-agent" {
		slug += "-plugin"
	}
	return "plugin-" + slug
}

// createHogFunction is a generation 2 create: it makes a hog function of
// the request (rec, from the validated in) and answers the config it did
// not save (id and timestamps null), or refuses when the plugin has no
// migrator. A config the hog function's save fails on
// (configInput.unstorable) is a 500.
//
// Today's service (the notes' "The service as it is in 2026") builds the
// hog function only from a form's config field: a JSON body, or a form
// without config, is refused as a plugin without a migrator is, and makes
// nothing. The hog function it makes is enabled unless the request said
// otherwise, while the answer shows the config's default, not enabled.
func (s *Server) createHogFunction(req *request, rec *record, in *configInput) *apiError {
	p := req.cat.get(rec.Plugin)
	if p == nil || !p.HasMigrator || req.svc.isToday() && in.config == nil {
		return errInvalid(DetailCreationDisabled, "")
	}
	if in.unstorable {
		return errServer()
	}
	made := *rec
	if req.svc.isToday() && in.enabled == nil {
		made.Enabled = true
	}
	hf, err := hogFunctionOf(p, &made, nil)
	if err == nil {
		err = s.store.write(req.ctx, func(tx *storeTx) error { return tx.addHogFunction(hf) })
	}
	if err != nil {
		return s.internal(req, err)
	}
	writeJSON(req.w, http.StatusCreated, rec.view(req.cat, true, req.svc))
	return nil
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

// hogFunctionView is a hog function as the migrate action answers it
// (the fields a legacy plugin's function has).
type hogFunctionView struct {
	ID             string          `json:"id"`
	Type           string          `json:"type"`
	Name           string          `json:"name"`
	Description    string          `json:"description"`
	CreatedAt      string          `json:"created_at"`
	CreatedBy      *struct{}       `json:"created_by"`
	UpdatedAt      string          `json:"updated_at"`
	Enabled        bool            `json:"enabled"`
	Deleted        bool            `json:"deleted"`
	Hog            string          `json:"hog"`
	InputsSchema   json.RawMessage `json:"inputs_schema"`
	Inputs         json.RawMessage `json:"inputs"`
	Filters        json.RawMessage `json:"filters"`
	Masking        *struct{}       `json:"masking"`
	IconURL        *string         `json:"icon_url"`
	TemplateID     string          `json:"template_id"`
	ExecutionOrder *int64          `json:"execution_order"`
}

// view renders hf as migrate answers it, in catalog cat.
func (hf *HogFunction) view(cat *catalog) *hogFunctionView {
	return &hogFunctionView{
		ID: hf.ID, Type: hf.Type, Name: hf.Name, Description: hf.Description,
		CreatedAt: formatTime(hf.CreatedAt.UnixMicro()), UpdatedAt: formatTime(hf.UpdatedAt.UnixMicro()),
		Enabled: hf.Enabled, Hog: hf.hog(cat), InputsSchema: hf.schemaJSON(cat), Inputs: hf.maskedInputs(cat),
		Filters: hf.Filters, TemplateID: hf.TemplateID, ExecutionOrder: hf.ExecutionOrder,
	}
}
