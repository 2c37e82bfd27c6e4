package localapi

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// The generation 2 refusals, worded as the service words them.
const (
	// DetailCreationDisabled answers a create of a config whose plugin has
	// no migrator.
	DetailCreationDisabled = "Plugin creation is no longer possible. Please refer to the Hog Functions documentation for more information."
	// DetailNoMigration answers a migrate of such a config.
	DetailNoMigration = "No migration available for this plugin"
)

// HogFunction is a hog function the service made of a plugin config from
// generation 2 on: by a create (which stores no config) or by migrate.
type HogFunction struct {
	// ID is a UUID (version 7), as PostHog's hog functions have.
	ID      string `json:"id"`
	Project int64  `json:"project"`
	Plugin  int64  `json:"plugin"`
	// Type is transformation (a plugin with processEvent), source_webhook
	// (an import app) or destination (any other).
	Type        string `json:"type"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Enabled     bool   `json:"enabled"`
	// TemplateID is "plugin-" and the plugin's URL without its
	// https://github.com/PostHog/ or inline:// prefix (its ID without one),
	// as PostHog's legacy plugin templates are named.
	TemplateID string `json:"template_id"`
	// SourceConfigID is the config migrate made it of; nil for a create.
	SourceConfigID *int64 `json:"source_config_id"`
	// Inputs are the config's settings as {"<key>": {"value": v}}, secret
	// values as they were sent (in process only: the debug route and the
	// API mask them).
	Inputs         json.RawMessage `json:"inputs"`
	Filters        json.RawMessage `json:"filters"`
	ExecutionOrder int64           `json:"execution_order"`
	CreatedAt      time.Time       `json:"created_at"`
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
	return &HogFunction{
		ID: id.String(), Project: rec.Team, Plugin: p.ID, Type: p.hogFunctionType(),
		Name: deref(rec.shownName(p)), Description: deref(rec.shownDescription(p)), Enabled: rec.Enabled,
		TemplateID: p.templateID(), SourceConfigID: source, Inputs: rawInputs, Filters: filters,
		ExecutionOrder: rec.Order, CreatedAt: time.Now().UTC(),
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

// hogFunctionView is a hog function as PostHog's hog function API answers
// it (the fields a legacy plugin's function has).
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
	InputsSchema   []inputSchema   `json:"inputs_schema"`
	Inputs         json.RawMessage `json:"inputs"`
	Filters        json.RawMessage `json:"filters"`
	Masking        *struct{}       `json:"masking"`
	IconURL        *string         `json:"icon_url"`
	TemplateID     string          `json:"template_id"`
	ExecutionOrder int64           `json:"execution_order"`
}

// inputSchema is one entry of inputs_schema, from the plugin's
// config_schema.
type inputSchema struct {
	Key      string          `json:"key"`
	Type     string          `json:"type"`
	Label    string          `json:"label"`
	Required bool            `json:"required"`
	Secret   bool            `json:"secret"`
	Default  json.RawMessage `json:"default,omitempty"`
}

// legacyPluginHog is the code of a legacy plugin's hog function: the
// plugin itself runs behind it.
const legacyPluginHog = "// Runs the legacy plugin this function was migrated from.\nreturn event"

// view renders hf as the API answers it; p is its plugin (nil when the
// catalog no longer has it), whose secret inputs are masked.
func (hf *HogFunction) view(p *catalogEntry) *hogFunctionView {
	created := formatTime(hf.CreatedAt.UnixMicro())
	v := &hogFunctionView{
		ID: hf.ID, Type: hf.Type, Name: hf.Name, Description: hf.Description, CreatedAt: created, UpdatedAt: created,
		Enabled: hf.Enabled, Hog: legacyPluginHog, InputsSchema: []inputSchema{}, Inputs: hf.maskedInputs(p),
		Filters: hf.Filters, TemplateID: hf.TemplateID, ExecutionOrder: hf.ExecutionOrder,
	}
	if p != nil {
		for _, f := range p.ConfigSchema.Fields {
			typ := f.Type
			if typ == "" {
				typ = "string"
			}
			v.InputsSchema = append(v.InputsSchema, inputSchema{Key: f.Key, Type: typ, Label: f.Name,
				Required: f.Required, Secret: slices.Contains(p.secrets, f.Key), Default: f.Default})
		}
	}
	return v
}

// maskedInputs shows a secret input that is set as {"secret": true}, as
// PostHog answers encrypted inputs.
func (hf *HogFunction) maskedInputs(p *catalogEntry) json.RawMessage {
	if p == nil || len(p.secrets) == 0 {
		return hf.Inputs
	}
	var inputs map[string]map[string]json.RawMessage
	if err := json.Unmarshal(hf.Inputs, &inputs); err != nil {
		return json.RawMessage(`{}`) // never show what might be a secret
	}
	for _, k := range p.secrets {
		if in, ok := inputs[k]; ok && python.Truthy(in["value"]) {
			inputs[k] = map[string]json.RawMessage{"secret": json.RawMessage("true")}
		}
	}
	out, err := marshalJSON(inputs)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return out
}
