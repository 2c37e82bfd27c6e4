package localapi

import (
	"bytes"
	"encoding/json"
	"slices"
)

// PostHog keeps a hog function template for each legacy plugin it can
// migrate (the plugin listings' hog_function_migration_available, the
// catalog's has_migrator), named as templateID names it. The local API's
// templates are those plugins: the plugin's name, description, icon and
// hog function type, the code that runs the plugin, and its config_schema
// as inputs_schema. A hog function made of a config, or created from such a
// template, keeps its plugin's id (HogFunction.Plugin), and its code and
// inputs_schema are the template's until it is sent others.

// legacyPluginHog is the code of a legacy plugin's hog function: the
// plugin itself runs behind it.
const legacyPluginHog = "// Runs the legacy plugin this function was migrated from.\nreturn event"

// template returns the plugin whose template is named id, or nil.
func (c *catalog) template(id string) *catalogEntry {
	for _, pid := range c.ids {
		if e := c.byID[pid]; e.HasMigrator && e.templateID() == id {
			return e
		}
	}
	return nil
}

// inputSchema is one entry of inputs_schema.
type inputSchema struct {
	Key      string          `json:"key"`
	Type     string          `json:"type"`
	Label    string          `json:"label,omitempty"`
	Required bool            `json:"required"`
	Secret   bool            `json:"secret"`
	Default  json.RawMessage `json:"default,omitempty"`
}

// inputsSchema is the plugin's config_schema as its template's
// inputs_schema; its secret inputs are the keys the service treats as
// secret.
func (p *catalogEntry) inputsSchema() []inputSchema {
	out := []inputSchema{}
	for _, f := range p.ConfigSchema.Fields {
		typ := f.Type
		if typ == "" {
			typ = "string"
		}
		out = append(out, inputSchema{Key: f.Key, Type: typ, Label: f.Name, Required: f.Required,
			Secret: slices.Contains(p.secrets, f.Key), Default: f.Default})
	}
	return out
}

// hogTemplateView is a template as PostHog's template serializer shows it,
// in a hog function's template field (the fields clients read).
type hogTemplateView struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	Code         string          `json:"code"`
	CodeLanguage string          `json:"code_language"`
	InputsSchema json.RawMessage `json:"inputs_schema"`
	Type         string          `json:"type"`
	Status       string          `json:"status"`
	Free         bool            `json:"free"`
	IconURL      *string         `json:"icon_url"`
}

func (p *catalogEntry) templateView() *hogTemplateView {
	schema, _ := marshalJSON(p.inputsSchema())
	return &hogTemplateView{ID: p.templateID(), Name: deref(p.Name), Description: deref(p.Description), Code: legacyPluginHog,
		CodeLanguage: "hog", InputsSchema: schema, Type: p.hogFunctionType(), Status: "stable", Free: true, IconURL: nonEmpty(p.Icon)}
}

// templateOf returns the plugin whose template hf was made from, nil for
// a function of its own code or whose plugin the catalog no longer has.
func (hf *HogFunction) templateOf(cat *catalog) *catalogEntry { return cat.get(hf.Plugin) }

// hog is hf's code: its own, or its template's.
func (hf *HogFunction) hog(cat *catalog) string {
	if hf.Hog != nil {
		return *hf.Hog
	}
	if hf.templateOf(cat) != nil {
		return legacyPluginHog
	}
	return ""
}

// schemaJSON is hf's inputs_schema: its own, or its template's.
func (hf *HogFunction) schemaJSON(cat *catalog) json.RawMessage {
	if hf.InputsSchema != nil {
		return hf.InputsSchema
	}
	if p := hf.templateOf(cat); p != nil {
		if raw, err := marshalJSON(p.inputsSchema()); err == nil {
			return raw
		}
	}
	return json.RawMessage(`[]`)
}

// schemaItems is hf's inputs_schema, decoded.
func (hf *HogFunction) schemaItems(cat *catalog) []inputSchema {
	var items []inputSchema
	if err := json.Unmarshal(hf.schemaJSON(cat), &items); err != nil {
		return nil // validated when it was stored
	}
	return items
}

// maskedInputs shows every secret input that is set as {"secret": true},
// as PostHog answers the inputs it keeps encrypted (to_representation: an
// input of a schema entry with secret true whose object is not empty).
func (hf *HogFunction) maskedInputs(cat *catalog) json.RawMessage {
	var inputs map[string]json.RawMessage
	if err := json.Unmarshal(hf.Inputs, &inputs); err != nil {
		return json.RawMessage(`{}`) // never show what might be a secret
	}
	masked := false
	for _, s := range hf.schemaItems(cat) {
		if in, ok := inputs[s.Key]; ok && s.Secret && nonEmptyObject(in) {
			inputs[s.Key], masked = json.RawMessage(`{"secret":true}`), true
		}
	}
	if !masked {
		return hf.Inputs
	}
	return orderedAs(hf.Inputs, inputs)
}

// nonEmptyObject reports whether raw is a JSON object with members (what
// Python finds true of a dict).
func nonEmptyObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && len(m) > 0
}

// orderedAs writes the members of vals in the order of the object orig.
func orderedAs(orig json.RawMessage, vals map[string]json.RawMessage) json.RawMessage {
	keys := objectKeys(orig)
	obj := make(orderedObject, 0, len(keys))
	for _, k := range keys {
		obj = append(obj, member{k, vals[k]})
	}
	out, err := marshalJSON(obj)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return out
}

// objectKeys lists the member names of a JSON object in their order.
func objectKeys(raw json.RawMessage) []string {
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
	}
	return keys
}
