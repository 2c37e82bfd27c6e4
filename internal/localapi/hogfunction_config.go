package localapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// What the service makes of a config, as the notes' "What a create or a
// bulk migration makes" says: a generation 2 create
// (hog_function_from_plugin_config) and PostHog's bulk migration
// (migrate_legacy_plugins) build a hog function from the plugin-<slug>
// template of the plugin's url (templateCatalog.forPlugin) and validate it
// as PostHog's HogFunctionSerializer does.

// configFunctionData is what both hand the serializer for a config of
// plugin p with settings, from template tpl: the template's type (or
// typ), description, filters, code, icon and inputs_schema; the plugin's
// name (or name); the settings as {key: {"value": v}} (coerced to the
// schema's types when coerce); the config's order as execution_order.
func configFunctionData(p *catalogEntry, tpl *hogTemplate, settings json.RawMessage, order int64, enabled bool,
	typ string, name any, coerce bool,
) (map[string]any, error) {
	decoded, err := decodeJSON(settings)
	if err != nil {
		return nil, err
	}
	config, _ := decoded.(map[string]any)
	schema := map[string]inputSchema{}
	for _, s := range tpl.schema() {
		schema[s.Key] = s
	}
	inputs := make(map[string]any, len(config))
	for k, v := range config {
		if s, ok := schema[k]; ok && coerce {
			v = coerceInput(v, s.Type)
		}
		inputs[k] = map[string]any{"value": v}
	}
	if typ == "" {
		typ = tpl.Type
	}
	if name == nil && p.Name != nil {
		name = *p.Name
	}
	obj := map[string]any{
		"template_id": tpl.ID, "type": typ, "name": name, "description": tpl.Description, "hog": tpl.Code,
		"inputs": inputs, "enabled": enabled, "icon_url": tpl.IconURL, "execution_order": order,
	}
	if err := setDecoded(obj, "filters", tpl.Filters); err != nil && tpl.Filters != nil {
		return nil, err
	}
	if err := setDecoded(obj, "inputs_schema", tpl.InputsSchema); err != nil {
		return nil, err
	}
	return asBody(obj)
}

// coerceInput is the bulk migration's coerce_input_value: plugin configs
// hold text, hog function inputs are typed, so a boolean input's "yes",
// "true", "1" (and "no", "false", "0", "") become booleans, and a string
// input's other values their Python str().
func coerceInput(v any, typ string) any {
	switch s, isText := v.(string); {
	case typ == "boolean" && isText:
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "yes", "true", "1":
			return true
		case "no", "false", "0", "":
			return false
		}
	case typ == "string" && v != nil && !isText:
		return pyStr(v)
	}
	return v
}

// createHogFunction is a generation 2 create: it makes a hog function of
// the request (rec, from the validated in; form tells a form body) and
// answers the config it did not save (id and timestamps null). It refuses
// (DetailCreationDisabled, nothing made) when the plugin's url has no
// template, or the function cannot be made (PostHog answers every
// exception so): a required input the settings leave out, the limit of
// enabled transformations, and on today's service a hidden template
// (GeoIP's) and a JSON body or a form without config (only a form's config
// makes one there). A config the hog function's save fails on
// (configInput.unstorable) is then a 500.
//
// The function's enabled is the form's, false when the form leaves it out
// (DRF's reading of an omitted form boolean); a JSON body that leaves it
// out makes it enabled (plugin_config.get("enabled", True)).
func (s *Server) createHogFunction(req *request, rec *record, in *configInput, form bool) *apiError {
	p := req.cat.get(rec.Plugin)
	var tpl *hogTemplate
	if p != nil {
		tpl = hogTemplates.forPlugin(&p.Plugin)
	}
	if tpl == nil || req.svc.isToday() && in.config == nil {
		return errInvalid(DetailCreationDisabled, "")
	}
	enabled := rec.Enabled
	if !form && in.enabled == nil {
		enabled = true
	}
	obj, err := configFunctionData(p, tpl, rec.Config, rec.Order, enabled, "", nil, false)
	if err != nil {
		return s.internal(req, err)
	}
	hf, sent, e := newHogFunction(&body{json: obj}, obj, req.project, hogWrite{defaults: true}, req.svc.isToday())
	if e != nil {
		return errInvalid(DetailCreationDisabled, "")
	}
	if in.unstorable {
		return errServer() // the hog function's save fails (*choice*: whatever key holds the value)
	}
	hf.Plugin = p.ID
	err = s.store.write(req.ctx, func(tx *storeTx) error { return addHogFunction(tx, hf, sent) })
	var refused *apiError
	switch {
	case errors.As(err, &refused):
		return errInvalid(DetailCreationDisabled, "")
	case err != nil:
		return s.internal(req, err)
	}
	writeJSON(req.w, http.StatusCreated, rec.view(req.cat, true, req.svc))
	return nil
}

// BulkMigration is how BulkMigrate runs PostHog's migrate_legacy_plugins.
type BulkMigration struct {
	// TestMode is the command's --test-mode: names are prefixed
	// "[CDP-TEST-HIDDEN] " and the configs stay enabled. Without it the
	// configs it covers are disabled, as a production run leaves them.
	TestMode bool
}

// BulkMigrate does to project what PostHog's bulk migration
// (migrate_legacy_plugins --kind=transformation) does, so that a test can
// meet a config PostHog has already moved: for each enabled config of the
// project that is not deleted, whose plugin has processEvent and a url
// with a template, newest config first, an enabled transformation made as
// a create makes it (name the plugin's, inputs coerced to the template's
// types; the first-time-event-tracker and customerio templates also get
// the config's id as legacy_plugin_config_id, as the command writes it).
// A config whose template already has an enabled transformation in the
// project (or one made earlier in the run) gets none, and counts as
// covered. Covered configs are disabled unless opts.TestMode.
//
// The functions are stored as bulk_create stores them: their inputs as
// validated (no null for an input left out), execution_order the config's
// order. Hidden templates are not refused (*choice*: PostHog ran the
// command before its newest source refused them). One function refused by
// the serializer (a required input left out, an order over 32767, the
// limit of 20 enabled transformations) fails the run and changes nothing,
// as the command's transaction does; configs without a template are left
// alone (the command fails on them too, *choice*). It returns the
// functions made, at any generation.
func (s *Server) BulkMigrate(project int64, opts BulkMigration) ([]HogFunction, error) {
	cat := s.catalog.Load()
	made := []HogFunction{}
	err := s.store.write(context.Background(), func(tx *storeTx) error {
		made = made[:0]
		recs, err := queryAll(tx.ctx, tx.st.every, scanRecord, project)
		if err != nil {
			return err
		}
		// The limit counts what the project had before: the command stores
		// its functions at the end of its run.
		enabledBefore, err := tx.enabledTransformations(project)
		if err != nil {
			return err
		}
		for i := len(recs) - 1; i >= 0; i-- { // newest first, as the command orders them
			rec := recs[i]
			p := cat.get(rec.Plugin)
			if !rec.Enabled || rec.Deleted || p == nil || !p.isTransformation() {
				continue
			}
			tpl := hogTemplates.forPlugin(&p.Plugin)
			if tpl == nil {
				continue
			}
			hf, err := bulkFunction(tx, p, tpl, rec, opts, enabledBefore)
			if err != nil {
				return fmt.Errorf("config %d (plugin %d): %w", rec.ID, p.ID, err)
			}
			if hf != nil {
				made = append(made, *hf)
			}
			if !opts.TestMode {
				// A queryset update: no activity, updated_at as it was.
				if _, err := tx.st.conn.ExecContext(tx.ctx, `UPDATE plugin_configs SET enabled = 0 WHERE id = ?`, rec.ID); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("localapi: bulk migration of project %d: %w", project, err)
	}
	return made, nil
}

// bulkFunction makes and stores the bulk migration's function of rec, or
// none when its template is covered: the project has an enabled
// transformation of it, made before or earlier in the run (the
// transaction sees those; PostHog keeps them in a set of the run's).
func bulkFunction(tx *storeTx, p *catalogEntry, tpl *hogTemplate, rec *record, opts BulkMigration, enabledBefore int64) (*HogFunction, error) {
	const kind = "transformation"
	if exists, err := tx.covered(rec.Team, tpl.ID, kind); err != nil || exists {
		return nil, err
	}
	var name any
	if opts.TestMode {
		name = "[CDP-TEST-HIDDEN] " + pyStr(derefAny(p.Name))
	}
	settings := rec.Config
	if tpl.ID == "plugin-first-time-event-tracker" || tpl.ID == "plugin-customerio-plugin" {
		var err error
		if settings, err = withSetting(settings, "legacy_plugin_config_id", fmt.Sprint(rec.ID)); err != nil {
			return nil, err
		}
	}
	obj, err := configFunctionData(p, tpl, settings, rec.Order, true, kind, name, true)
	if err != nil {
		return nil, err
	}
	hf, _, e := newHogFunction(&body{json: obj}, obj, rec.Team, hogWrite{defaults: true, withoutNulls: true}, false)
	if e != nil {
		return nil, e
	}
	if enabledBefore >= maxTransformationsPerTeam {
		return nil, errTransformationLimit()
	}
	hf.Plugin, hf.SourceConfigID = p.ID, &rec.ID
	return hf, tx.addHogFunction(hf)
}

// withSetting returns settings with key set to value.
func withSetting(settings json.RawMessage, key, value string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(settings, &m); err != nil {
		return nil, err
	}
	v, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	m[key] = v
	return marshalJSON(m)
}

// derefAny is *s, or nil (Python's None) for a nil s.
func derefAny(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}
