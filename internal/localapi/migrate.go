package localapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// A migrator is a hand-written destination template PostHog turns a
// plugin's configs into with the migrate action (PostHog's
// HOG_FUNCTION_MIGRATORS, keyed by the plugin's url): it writes the
// function's inputs from the config's settings. The newest source lists
// six (SendGrid, PostHog, Hubspot, Rudderstack, Loops, Avo); the local API
// has SendGrid's, the one every version lists (*choice*: the others'
// templates are not in its catalog). All are destinations, whose plugins
// show in neither collection: through the two collections migrate answers
// 400 or 404 but for a plugin of a catalog of one's own.
type migrator struct {
	templateID string
	// inputs writes the function's inputs of a config's settings.
	inputs func(settings map[string]any) map[string]any
	// filters are the migrated function's, which may differ from the
	// template's.
	filters map[string]any
}

// migrators are the local API's migrators by plugin url.
var migrators = map[string]*migrator{
	"https://github.com/PostHog/sendgrid-plugin": {
		templateID: "template-sendgrid",
		inputs:     sendgridInputs,
		filters: map[string]any{"events": []any{
			map[string]any{"id": "$identify", "name": "$identify", "type": "events", "order": json.Number("0")},
		}},
	},
}

// sendgridFields are the contact fields of Sendgrid's that its plugin's
// customFields may name.
var sendgridFields = []string{"address_line_1", "address_line_2", "alternate_emails", "anonymous_id", "city", "country",
	"email", "external_id", "facebook", "first_name", "last_name", "phone_number_id", "postal_code",
	"state_province_region", "unique_name", "whatsapp"}

// sendgridInputs is PostHog's TemplateSendGridMigrator: the API key, and
// the plugin's customFields ("prop" or "prop=field", comma-separated) as
// reserved or custom fields taken from the person's properties.
func sendgridInputs(settings map[string]any) map[string]any {
	properties, custom := map[string]any{}, map[string]any{}
	apiKey, ok := settings["sendgridApiKey"]
	if !ok {
		apiKey = ""
	}
	if fields, _ := settings["customFields"].(string); fields != "" {
		for _, field := range strings.Split(fields, ",") {
			prop, target, found := strings.Cut(field, "=")
			if !found {
				prop = strings.TrimSpace(field)
				target = prop
			}
			value := "{person.properties." + prop + "}"
			if slices.Contains(sendgridFields, target) {
				properties[target] = value
			} else {
				custom[target] = value
			}
		}
	}
	return map[string]any{
		"api_key":       map[string]any{"value": apiKey},
		"email":         map[string]any{"value": "{person.properties.email}"},
		"properties":    map[string]any{"value": properties},
		"custom_fields": map[string]any{"value": custom},
	}
}

// migratorFor returns the migrator of plugin p's url, or nil.
func migratorFor(p *Plugin) *migrator {
	if p.URL == "" {
		return nil
	}
	return migrators[p.URL]
}

// data is what PostHog's migrate action hands HogFunctionSerializer for
// config rec: the migrator's template with the migrator's inputs and
// filters, enabled when the config is.
func (m *migrator) data(rec *record) (map[string]any, error) {
	tpl := hogTemplates.get(m.templateID)
	var settings map[string]any
	decoded, err := decodeJSON(rec.Config)
	if err != nil {
		return nil, err
	}
	settings, _ = decoded.(map[string]any)
	obj := map[string]any{
		"template_id": tpl.ID, "type": tpl.Type, "name": tpl.Name, "description": tpl.Description, "hog": tpl.Code,
		"icon_url": tpl.IconURL, "masking": nil, "inputs": m.inputs(settings), "filters": m.filters,
	}
	if err := setDecoded(obj, "inputs_schema", tpl.InputsSchema); err != nil {
		return nil, err
	}
	if rec.Enabled {
		obj["enabled"] = true
	}
	return asBody(obj)
}

// migrate (generation 2) turns the config into a hog function when its
// plugin's url has a migrator, and disables the config; the config itself
// stays. The answer is the hog function, as the hog function API shows
// it. Every call makes one: migrating twice makes two, as a second create
// would. The function is validated as PostHog's serializer validates it,
// and a refusal (a required input the config does not set) changes
// nothing.
func (s *Server) migrate(req *request) *apiError {
	id, ok := req.recordID()
	if !ok || req.noAccess {
		return errRecordNotFound()
	}
	var hf *HogFunction
	rec, err := s.store.update(req.ctx, req.project, id, func(tx *storeTx, rec *record) error {
		if !req.route.coll.shows(rec) {
			return errRecordNotFound()
		}
		p := req.cat.get(rec.Plugin)
		var m *migrator
		if p != nil {
			m = migratorFor(&p.Plugin)
		}
		if m == nil {
			return errInvalid(DetailNoMigration, "")
		}
		obj, err := m.data(rec)
		if err != nil {
			return err
		}
		made, sent, e := newHogFunction(&body{json: obj}, obj, rec.Team, hogWrite{}, false)
		if e != nil {
			return e
		}
		made.Plugin, made.SourceConfigID = p.ID, &rec.ID
		if err := addHogFunction(tx, made, sent); err != nil {
			return err
		}
		hf, rec.Enabled = made, false
		return nil
	}, func(before, after *record) (*Activity, error) {
		made := activityChange{Type: "HogFunction", Action: "created", Field: "hog_function", After: hf.ID}
		return s.activityOf(activityMigrated, before, after, made)
	})
	switch {
	case err != nil:
		return s.failed(req, err)
	case rec == nil:
		return errRecordNotFound()
	}
	writeJSON(req.w, http.StatusOK, hf.apiView())
	return nil
}

// setDecoded sets obj[key] to raw, decoded as a request body is.
func setDecoded(obj map[string]any, key string, raw json.RawMessage) error {
	v, err := decodeJSON(raw)
	if err != nil {
		return err
	}
	obj[key] = v
	return nil
}

// asBody writes obj as a decoded JSON body holds it (numbers as
// json.Number), so that the serializer's rules read it as they read a
// request's.
func asBody(obj map[string]any) (map[string]any, error) {
	raw, err := marshalJSON(obj)
	if err != nil {
		return nil, err
	}
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	return m, nil
}
